"""PF475 transform-columns-removed-by-trainer: a lazily transformed dataset meets ``remove_unused_columns``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, is_from, kwarg, target_text
from preflight.rules.base import Rule, examples

_TRAINERS = ("Trainer", "Seq2SeqTrainer")
# columns the Trainer keeps for common models (forward() arguments, and the label names it keeps itself)
_KEPT = frozenset({"input_ids", "attention_mask", "labels", "label", "label_ids", "token_type_ids", "position_ids",
                   "pixel_values", "input_values", "input_features", "decoder_input_ids", "decoder_attention_mask"})
_ARGS = ("TrainingArguments", "Seq2SeqTrainingArguments")


def _transformed(ctx: FileContext) -> dict[str, ast.Call]:
    """name -> the ``with_transform``/``set_transform`` call that gave the dataset a lazy transform."""
    out: dict[str, ast.Call] = {}
    for call in ctx.nodes(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("with_transform", "set_transform"):
            continue
        if func.attr == "set_transform":
            name = target_text(func.value) or _split_name(func.value)
        else:
            parent = ctx.parent(call)
            name = (target_text(parent.targets[0]) if isinstance(parent, ast.Assign) and len(parent.targets) == 1
                    else None)
        if name:
            out.setdefault(name, call)
    return out


def _reads_only_kept_columns(ctx: FileContext, transform: ast.Call) -> bool:
    """The transform is a function of this file that reads only columns the Trainer keeps
    (``batch["input_ids"]``): removing the others does not starve it."""
    fn_arg = transform.args[0] if transform.args else None
    if not isinstance(fn_arg, ast.Name):
        return False
    fn = next((n for n in ctx.nodes(ast.FunctionDef) if n.name == fn_arg.id), None)
    if fn is None or not fn.args.args:
        return False
    param = fn.args.args[0].arg
    keys = set()
    for sub in ast.walk(fn):
        if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name) and sub.value.id == param:
            if not (isinstance(sub.slice, ast.Constant) and isinstance(sub.slice.value, str)):
                return False
            keys.add(sub.slice.value)
        elif isinstance(sub, ast.Name) and sub.id == param and not isinstance(ctx.parent(sub), ast.Subscript):
            return False  # the whole row is used: its columns are not known
    return bool(keys) and keys <= _KEPT


def _trainer_classes(ctx: FileContext) -> set[str]:
    """Local subclasses of the transformers Trainer (``class WeightedTrainer(Trainer)``)."""
    names = set()
    for cls in ctx.nodes(ast.ClassDef):
        if any(ast.unparse(b).rsplit(".", 1)[-1] in _TRAINERS for b in cls.bases):
            names.add(cls.name)
    return names


def _split_name(node: ast.expr) -> Optional[str]:
    """``ds["train"]`` of a DatasetDict (``ds["train"].set_transform(fn)``): the split is one object,
    transformed in place (transformers issue 17894, run_image_classification.py)."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
            and isinstance(node.slice.value, str) and target_text(node.value):
        return ast.unparse(node)
    return None


def _dataset_name(node: Optional[ast.expr]) -> Optional[str]:
    if node is None:
        return None
    if isinstance(node, ast.Subscript):  # ds["train"] of a DatasetDict given the transform
        return target_text(node.value)
    return target_text(node)


@register
class TransformColumnsRemovedByTrainer(Rule):
    code = "PF475"
    needs_text = ("_transform(",)
    name = "transform-columns-removed-by-trainer"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A dataset given a lazy `with_transform`/`set_transform` goes to the HF Trainer without "
               "`remove_unused_columns=False`: its raw columns are dropped before the transform reads them")
    explanation = """
## What it finds

A `datasets` dataset given a lazy transform (`ds = raw.with_transform(fn)` or
`ds.set_transform(fn)`) passed to `Trainer(train_dataset=ds, ...)` / `eval_dataset=`, whose
`TrainingArguments(...)` (built in the same file) do not say `remove_unused_columns=False`.

## Why it matters

With `remove_unused_columns=True` (the default) the Trainer removes, before batching, every
dataset column that is not an argument of the model's `forward()`. A lazy transform runs
only when rows are read, so the columns the Trainer sees are the raw ones (`text`, `image`):
they are dropped, and the transform then gets rows without them. The first batch fails
(`KeyError`/`IndexError`, or "No columns in the dataset match the model's forward method
signature") — after the model was loaded and the job queued (transformers issue 22119: "it
runs _remove_unused_columns() before calling the transform, which has the effect of
removing the whole dataset").

## How to fix it

`TrainingArguments(..., remove_unused_columns=False)` (the image-classification examples do
this), or tokenize eagerly with `dataset.map(fn, remove_columns=...)`.

## When preflight stays silent

* `remove_unused_columns=False` in the arguments (or set on them later), or arguments that
  preflight cannot read (`**kwargs`, parsed from the command line).
* The dataset is prepared with `map` (eager): its columns are the transformed ones.
* The transform (a function of the file) reads only columns the Trainer keeps (`input_ids`,
  `attention_mask`, `labels`, `pixel_values`, ...): an augmentation of already tokenized rows.
"""
    bad_examples = examples("preflight.rules.code._pf475_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf475_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        lazy = _transformed(ctx)
        if not lazy:
            return
        local = _trainer_classes(ctx)
        arg_calls: dict[str, ast.Call] = {}
        for call, qual in calls(ctx):
            if any(is_from(qual, "transformers", a) for a in _ARGS):
                parent = ctx.parent(call)
                if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
                    name = target_text(parent.targets[0])
                    if name:
                        arg_calls[name] = call
        for call, qual in calls(ctx):
            if not (any(is_from(qual, "transformers", t) for t in _TRAINERS)
                    or (isinstance(call.func, ast.Name) and call.func.id in local)):
                continue
            datasets = [(kw, _dataset_name(kwarg(call, kw))) for kw in ("train_dataset", "eval_dataset")]
            datasets += [(kw, _split_name(node)) for kw in ("train_dataset", "eval_dataset")
                         if (node := kwarg(call, kw)) is not None]
            hit = next(((kw, name) for kw, name in datasets if name in lazy), None)
            if hit is None:
                continue
            args = kwarg(call, "args")
            targs = args if isinstance(args, ast.Call) else arg_calls.get(target_text(args) or "") if args else None
            if not isinstance(targs, ast.Call) or has_unpacking(targs):
                continue
            remove = kwarg(targs, "remove_unused_columns")
            if remove is not None and not (isinstance(remove, ast.Constant) and remove.value is True):
                continue
            if remove is None and args is not None and not isinstance(args, ast.Call) and self._set_later(
                    ctx, target_text(args) or ""):
                continue
            kw, name = hit
            transform = lazy[name]
            if _reads_only_kept_columns(ctx, transform):
                continue
            assert isinstance(transform.func, ast.Attribute)
            yield ctx.finding(
                self, targs,
                f"`{name}` is transformed lazily (`{transform.func.attr}`) and goes to the Trainer as `{kw}`, but "
                "these TrainingArguments keep `remove_unused_columns=True`: the Trainer drops every raw column "
                "that is not a `forward()` argument before the transform runs, so the transform gets rows "
                "without its inputs and the first batch fails. Add `remove_unused_columns=False`",
                evidence=[ctx.evidence(transform, f"`{name}` gets a lazy transform here"),
                          ctx.evidence(call, "the Trainer that removes the columns")])

    @staticmethod
    def _set_later(ctx: FileContext, name: str) -> bool:
        for node in ctx.nodes(ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Attribute) and t.attr == "remove_unused_columns" and target_text(t.value) == name:
                    return True
        return False
