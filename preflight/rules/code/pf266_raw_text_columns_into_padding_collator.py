"""PF266 raw-text-columns-into-padding-collator: a dataset tokenized by ``map`` without removing its text
columns, fed through a padding collator in a hand-written ``DataLoader``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import Rule, examples

# transformers' collators that call `tokenizer.pad` on every key of the features (strings included)
_PADDING_COLLATORS = frozenset({"DataCollatorWithPadding", "DataCollatorForSeq2Seq",
                                "DataCollatorForTokenClassification", "DataCollatorForLanguageModeling",
                                "DataCollatorForWholeWordMask"})
# what keeps only some columns of a dataset afterwards (set_format/with_format only with `columns`: without
# it, strings stay strings under the torch format)
_COLUMN_KEEPERS = frozenset({"remove_columns", "select_columns", "set_transform", "with_transform"})
_FORMATS = frozenset({"set_format", "with_format"})
_TOKENIZER_WORDS = ("tokenizer", "tokenize", "processor", "encode")


def _base_name(expr: ast.AST) -> Optional[str]:
    """``ds`` of ``ds``, ``ds["train"]``, ``ds.train``."""
    while isinstance(expr, (ast.Subscript, ast.Attribute)):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _function(ctx: FileContext, expr: ast.AST) -> Optional[ast.AST]:
    """The function a ``map`` runs: a lambda, or a def of the file by name."""
    if isinstance(expr, ast.Lambda):
        return expr
    if isinstance(expr, ast.Name):
        for node in ctx.nodes(ast.FunctionDef):
            if node.name == expr.id:
                return node
    return None


def _tokenized_text_columns(fn: ast.AST) -> list[str]:
    """The columns of its batch that the function hands to a tokenizer (``tokenizer(examples["text"])``,
    ``tokenizer(text_target=examples["title"])``), and does not write back."""
    params = fn.args.args if isinstance(fn, (ast.FunctionDef, ast.Lambda)) else []
    if not params:
        return []
    batch = params[0].arg
    out: list[str] = []
    written: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and any(w in ast.unparse(node.func).lower() for w in _TOKENIZER_WORDS):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name) and arg.value.id == batch:
                    column = const_str(arg.slice)
                    if column is not None and column not in out:
                        out.append(column)
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript):
                    column = const_str(target.slice)
                    if column is not None:
                        written.add(column)
    return [c for c in out if c not in written]


def _collator_names(ctx: FileContext) -> dict[str, ast.Call]:
    """Names bound to a padding collator (``data_collator = DataCollatorForSeq2Seq(tokenizer)``)."""
    out: dict[str, ast.Call] = {}
    for node in ctx.nodes(ast.Assign):
        if isinstance(node.value, ast.Call) and call_last(node.value) in _PADDING_COLLATORS:
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value
    return out


def _kept_columns(ctx: FileContext, name: str) -> bool:
    """The file narrows the columns of ``name`` (or rebinds it from itself) somewhere: judged kept."""
    for node in ctx.nodes(ast.Call):
        func = node.func
        if not isinstance(func, ast.Attribute) or _base_name(func.value) != name:
            continue
        if func.attr in _COLUMN_KEEPERS or (func.attr in _FORMATS and (len(node.args) > 1 or has_unpacking(node)
                                                                       or kwarg(node, "columns") is not None)):
            return True
    return False


def _loaders(ctx: FileContext, dataset: str, collators: dict[str, ast.Call]) -> list[tuple[ast.Call, ast.AST]]:
    """(DataLoader call, its collator) for loaders over ``dataset`` (or a split of it) with a padding collator."""
    out: list[tuple[ast.Call, ast.AST]] = []
    for call in ctx.nodes(ast.Call):
        if call_last(call) != "DataLoader" or not call.args or has_unpacking(call):
            continue
        if _base_name(call.args[0]) != dataset:
            continue
        collate = kwarg(call, "collate_fn")
        if (isinstance(collate, ast.Name) and collate.id in collators) or (
                isinstance(collate, ast.Call) and call_last(collate) in _PADDING_COLLATORS):
            out.append((call, collate))
    return out


@register
class RawTextColumnsIntoPaddingCollator(Rule):
    code = "PF266"
    name = "raw-text-columns-into-padding-collator"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("DataCollator", "DataLoader", ".map(")
    summary = ("a dataset tokenized with `map` keeps its text columns and goes through a padding collator in a "
               "DataLoader: the collator cannot turn the strings into tensors")
    explanation = """
## What it finds

`tokenized = raw.map(preprocess, batched=True)` without `remove_columns=`, where
`preprocess` hands a column of its batch to the tokenizer (`tokenizer(examples["text"])`),
and then `DataLoader(tokenized[...], collate_fn=DataCollatorWithPadding(...))` (or
`DataCollatorForSeq2Seq`, `DataCollatorForTokenClassification`,
`DataCollatorForLanguageModeling`) in a hand-written loop, with no
`remove_columns`/`select_columns`/`set_format`/`with_format` on the tokenized dataset.

## Why it matters

`Dataset.map` adds the tokenizer's columns and keeps the original ones. The Trainer
drops columns its model does not take (`remove_unused_columns`), but a plain
`DataLoader` hands every column to the collator, and these collators call
`tokenizer.pad` on all keys: the text column cannot become a tensor, and the first
batch fails with "ValueError: Unable to create tensor, you should probably activate
truncation and/or padding ... Perhaps your features (`review_body` in this case) have
excessive nesting" or "too many dimensions 'str'" (transformers issue 15505, the
summarization course notebook run with a custom Accelerate loop).

## How to fix it

`raw.map(preprocess, batched=True, remove_columns=raw["train"].column_names)`, or
`tokenized = tokenized.remove_columns([...])` / `tokenized.set_format("torch",
columns=[...])` before building the loaders.

## When preflight stays silent

* `map` is given `remove_columns=` (or `**kwargs`), or the file calls `remove_columns`,
  `select_columns`, `set_transform`/`with_transform`, or `set_format`/`with_format` with
  `columns=` on the tokenized dataset. `set_format("torch")` alone does not count: the
  torch format leaves string columns as strings, so the collator still meets them (a
  public script with the `remove_columns` line commented out and `set_format("torch")`
  fails this way).
* The mapped function writes the tokenized column back under its own name, or its
  tokenizer reads no column of the batch.
* The dataset goes to a `Trainer` (which removes the unused columns) or through
  `default_data_collator` (which skips strings) or a collator of the file's own.
"""
    bad_examples = examples("preflight.rules.code._pf266_examples", "PF266_BAD")
    good_examples = examples("preflight.rules.code._pf266_examples", "PF266_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        collators = _collator_names(ctx)
        for node in ctx.nodes(ast.Assign):
            call = node.value
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "map"
                    and call.args and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                continue
            if kwarg(call, "remove_columns") is not None or has_unpacking(call):
                continue
            fn = _function(ctx, call.args[0])
            columns = _tokenized_text_columns(fn) if fn is not None else []
            if not columns:
                continue
            name = node.targets[0].id
            source = _base_name(call.func.value)
            if _kept_columns(ctx, name) or (source is not None and source != name and _kept_columns(ctx, source)):
                continue
            for loader, collate in _loaders(ctx, name, collators):
                shown = ", ".join(f"`{c}`" for c in columns)
                yield ctx.finding(
                    self, call,
                    f"`{ast.unparse(call)[:70]}` keeps the text column(s) {shown} that the tokenizer read, and "
                    f"`{ast.unparse(loader)[:60]}` feeds them to `{ast.unparse(collate)}`, which pads every key: "
                    "the strings cannot become tensors (\"Unable to create tensor ... too many dimensions 'str'\"). "
                    "Pass `remove_columns=` to `map` (the dataset's `column_names`)",
                    evidence=[ctx.evidence(loader, "a plain DataLoader keeps every column (only the Trainer drops "
                                                   "unused ones)")])
                break
