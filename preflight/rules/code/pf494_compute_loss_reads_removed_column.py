"""PF494 compute-loss-reads-removed-column: a Trainer subclass's ``compute_loss`` reads a dataset column that
``remove_unused_columns`` drops before batching."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg, literal
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import Rule, examples
from preflight.rules.code._trainer_columns import (
    FORWARD_COLUMNS,
    TRAINING_ARGUMENTS,
    hf_model,
    value_of,
)

_BASES = frozenset({"Trainer", "Seq2SeqTrainer"})


def _trainer_classes(ctx: FileContext) -> dict[str, ast.FunctionDef]:
    """Classes of the file deriving from transformers' Trainer -> their ``compute_loss``."""
    out: dict[str, ast.FunctionDef] = {}
    for cls in ctx.nodes(ast.ClassDef):
        if not any(ast.unparse(b).rsplit(".", 1)[-1] in _BASES for b in cls.bases):
            continue
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and fn.name == "compute_loss" and len(fn.args.args) >= 3:
                out[cls.name] = fn
    return out


def _keys_read(fn: ast.FunctionDef) -> dict[str, ast.AST]:
    """``inputs.pop("k")``, ``inputs.get("k")``, ``inputs["k"]`` on the batch argument."""
    batch = fn.args.args[2].arg
    out: dict[str, ast.AST] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("pop", "get") \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == batch and node.args:
            key = const_str(node.args[0])
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == batch \
                and isinstance(node.ctx, ast.Load):
            key = const_str(node.slice)
        else:
            continue
        if key is not None:
            out.setdefault(key, node)
    return out


def _label_names(args: ast.Call) -> set[str]:
    names = kwarg(args, "label_names")
    if isinstance(names, (ast.List, ast.Tuple)):
        return {e.value for e in names.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()


@register
class ComputeLossReadsRemovedColumn(Rule):
    code = "PF494"
    name = "compute-loss-reads-removed-column"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("compute_loss",)
    summary = "compute_loss reads a dataset column that the Trainer removes (remove_unused_columns=True)"
    explanation = """
## What it finds

A subclass of transformers' `Trainer`/`Seq2SeqTrainer` whose `compute_loss(self, model,
inputs, ...)` reads a key of `inputs` (`inputs.pop("sample_weight")`, `inputs["w"]`,
`inputs.get("w")`) that is not an argument of the model's `forward` nor a label name, while
the `TrainingArguments` it is built with leave `remove_unused_columns` at its default
`True`, the model is a transformers `*For*.from_pretrained` model, and no custom collator
could add the key.

## Why it matters

Before batching, `Trainer._remove_unused_columns` drops every dataset column that is not
in the signature of `model.forward` (plus `label`, `label_ids` and `args.label_names`;
transformers `trainer.py` `_set_signature_columns_if_needed`). The extra column never
reaches `compute_loss`: `inputs.pop("sample_weight")` fails with `KeyError` at the first
step (`inputs.get` silently returns None) (transformers#25054).

## How to fix it

`TrainingArguments(..., remove_unused_columns=False)` (then drop the extra keys before
`model(**inputs)`), or list the column in `label_names`.

## When preflight stays silent

* `remove_unused_columns` is given (any value but a literal True), the arguments cannot be
  read (`**kwargs`, built elsewhere), or the key is in `label_names`.
* The key is a forward argument of transformers' models (`input_ids`, `labels`,
  `pixel_values`, ...), the model is not a `*For*.from_pretrained` model of the file, or the
  trainer is given a collator of the file's own (it may build the key).
"""
    bad_examples = examples("preflight.rules.code._pf494_examples", "PF494_BAD")
    good_examples = examples("preflight.rules.code._pf494_examples", "PF494_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        classes = _trainer_classes(ctx)
        if not classes:
            return
        for call in ctx.nodes(ast.Call):
            fn = classes.get(call_last(call))
            if fn is None or has_unpacking(call) or not hf_model(ctx, kwarg(call, "model")):
                continue
            collator = kwarg(call, "data_collator")
            collator_value = value_of(ctx, collator) if collator is not None else None
            if collator is not None and not (isinstance(collator_value, ast.Call)
                                             and call_last(collator_value).startswith("DataCollator")):
                continue
            args: Optional[ast.AST] = value_of(ctx, kwarg(call, "args"))
            if not isinstance(args, ast.Call) or call_last(args) not in TRAINING_ARGUMENTS or has_unpacking(args):
                continue
            remove = kwarg(args, "remove_unused_columns")
            if remove is not None and literal(ctx, remove) is not True:
                continue
            keep = FORWARD_COLUMNS | _label_names(args)
            raw = {k: n for k, n in _keys_read(fn).items() if k not in keep}
            if not raw:
                continue
            key, where = next(iter(raw.items()))
            yield ctx.finding(
                self, args,
                f"`{call_last(call)}.compute_loss` reads {key!r} from its inputs, which is not an argument of the "
                "model's forward, but these TrainingArguments keep `remove_unused_columns=True`: the Trainer drops "
                f"the column before batching and the first step fails with KeyError: {key!r}. Pass "
                "`remove_unused_columns=False` (or add the column to `label_names`)",
                evidence=[ctx.evidence(where, f"compute_loss reads {key!r} here")])
