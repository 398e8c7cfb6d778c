"""PF454 collator-columns-removed: a custom collator reads raw dataset columns that Trainer removes first."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, kwarg, literal
from preflight.rules.base import Rule, examples
from preflight.rules.code._trainer_columns import (
    FORWARD_COLUMNS,
    TRAINING_ARGUMENTS,
    hf_model,
    value_of,
)

_TRAINERS = ("Trainer", "Seq2SeqTrainer")

Func = Union[ast.FunctionDef, ast.Lambda]


def _last(qual: str, call: ast.Call) -> str:
    if qual:
        return qual.rsplit(".", 1)[-1]
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _collator_function(ctx: FileContext, expr: Optional[ast.AST]) -> Optional[Func]:
    """The function that collates: ``Collator(...)`` of a class of the file (its ``__call__``),
    a function of the file passed by name, or a lambda."""
    if isinstance(expr, ast.Lambda):
        return expr
    value = value_of(ctx, expr)
    if isinstance(value, ast.Lambda):
        return value
    name, method = None, ""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        name, method = value.func.id, "__call__"
    elif isinstance(expr, ast.Name):
        name, method = expr.id, ""
    if name is None:
        return None
    for node in ctx.nodes(ast.ClassDef):
        if node.name == name and method:
            return next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == method), None)
    for fn in ctx.nodes(ast.FunctionDef):
        if fn.name == name and not method:
            return fn
    return None


def _columns_read(fn: Func) -> dict[str, ast.AST]:
    """String keys read from the examples the collator receives: ``ex["text"]`` for ``ex`` drawn
    from the features argument, ``features[0]["text"]``, ``ex.get("text")``."""
    args = fn.args.args
    if args and args[0].arg == "self":
        args = args[1:]
    if not args:
        return {}
    feats = args[0].arg
    rows: set[str] = set()
    for node in ast.walk(fn):
        gens = node.generators if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) \
            else [node] if isinstance(node, ast.For) else []
        for gen in gens:
            if isinstance(gen.iter, ast.Name) and gen.iter.id == feats and isinstance(gen.target, ast.Name):
                rows.add(gen.target.id)

    def is_row(expr: ast.AST) -> bool:
        """``ex`` drawn from the features, or ``features[i]`` (not ``features["key"]``: a dict batch)."""
        if isinstance(expr, ast.Name):
            return expr.id in rows
        if not (isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and expr.value.id == feats):
            return False
        return not (isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str))

    out: dict[str, ast.AST] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str) and is_row(node.value) and isinstance(node.ctx, ast.Load):
            out.setdefault(node.slice.value, node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
                and is_row(node.func.value):
            out.setdefault(node.args[0].value, node)
    return out


@register
class CollatorColumnsRemoved(Rule):
    code = "PF454"
    needs_text = ("data_collator",)
    name = "collator-columns-removed"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = "A custom collator reads raw dataset columns that Trainer removes before it runs"
    explanation = """
## What it finds

`Trainer(..., data_collator=<a collator of the file>, args=TrainingArguments(...))`
where the collator reads a column of the examples (`ex["text"]`) that is not an
argument of the model's `forward` (a transformers model loaded with
`*For*.from_pretrained`), and the TrainingArguments leave `remove_unused_columns`
at its default, True.

## Why it matters

Before batching, Trainer drops every dataset column the model's `forward` does
not name (`_remove_unused_columns`), so the collator receives dicts without the
raw `text` column it tokenizes and fails with `KeyError: 'text'` on the first
batch (transformers issue 19599: "the collator will not be passed the correct keys").

## How to fix it

`TrainingArguments(..., remove_unused_columns=False)`, or tokenize in `dataset.map`
and let the collator see only model inputs.

## When preflight stays silent

* `remove_unused_columns` is given (any value but a literal True), or the
  TrainingArguments cannot be read (`**kwargs`, built elsewhere).
* The collator reads only model inputs (`input_ids`, `labels`, `pixel_values`, ...)
  or the label columns Trainer keeps (`label`, `label_ids`).
* The model is not loaded with `*For*.from_pretrained` in the file (its forward
  arguments are unknown).
"""
    bad_examples = examples("preflight.rules.code._pf454_examples", "PF454_BAD")
    good_examples = examples("preflight.rules.code._pf454_examples", "PF454_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            if _last(qual, call) not in _TRAINERS:
                continue
            collator = kwarg(call, "data_collator")
            fn = _collator_function(ctx, collator)
            if fn is None or not hf_model(ctx, kwarg(call, "model")):
                continue
            args = value_of(ctx, kwarg(call, "args"))
            if not isinstance(args, ast.Call) or _last("", args) not in TRAINING_ARGUMENTS or has_unpacking(args):
                continue
            remove = kwarg(args, "remove_unused_columns")
            if remove is not None and literal(ctx, remove) is not True:
                continue
            label_names = kwarg(args, "label_names")
            keep = set(FORWARD_COLUMNS)
            if isinstance(label_names, (ast.List, ast.Tuple)):
                keep |= {e.value for e in label_names.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            raw = {k: n for k, n in _columns_read(fn).items() if k not in keep}
            if not raw:
                continue
            key, where = next(iter(raw.items()))
            yield ctx.finding(
                self, args,
                f"the collator reads the column {key!r}, which is not an argument of the model's forward, but "
                "these TrainingArguments keep `remove_unused_columns=True`: Trainer drops the column before "
                f"the collator runs and the first batch fails with KeyError: {key!r}. Pass "
                "`remove_unused_columns=False`",
                evidence=[ctx.evidence(where, f"the collator reads {key!r}")])
