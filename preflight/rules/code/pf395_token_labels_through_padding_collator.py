"""PF395 token-labels-through-padding-collator: a token-classification job whose per-token ``labels``
go through ``DataCollatorWithPadding``, which pads the inputs but not the label lists."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import call_last, const_str
from preflight.rules.base import Rule, examples

# where a collator is handed over: the Trainer's argument, a DataLoader's
_COLLATOR_ARGS = ("data_collator", "collate_fn")


def _token_task(ctx: FileContext) -> Optional[ast.AST]:
    """The node that makes the file a token-classification job: a ``*ForTokenClassification`` model
    loaded or built, or per-token labels aligned through ``word_ids``."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("from_pretrained", "from_config"):
            owner = func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name.endswith("ForTokenClassification"):
                return call
        elif call_last(call).endswith("ForTokenClassification"):
            return call
    return None


def _pads_to_fixed_length(ctx: FileContext) -> bool:
    """A tokenizer call of the file pads every row to one length (``padding="max_length"``), so the
    label lists built beside it have one length too."""
    for call in ctx.nodes(ast.Call):
        value = kwarg(call, "padding")
        if value is not None and const_str(value) == "max_length":
            return True
    return False


def _used_collators(ctx: FileContext) -> list[tuple[ast.Call, ast.AST]]:
    """(``DataCollatorWithPadding(...)`` call, where it is handed over) for every one the file passes as
    a Trainer's ``data_collator`` or a DataLoader's ``collate_fn`` (inline or through a name)."""
    bound: dict[str, ast.Call] = {}
    for node in ctx.nodes(ast.Assign):
        if isinstance(node.value, ast.Call) and call_last(node.value) == "DataCollatorWithPadding":
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = node.value
                elif isinstance(target, ast.Attribute):
                    bound[target.attr] = node.value
    out: list[tuple[ast.Call, ast.AST]] = []
    for call in ctx.nodes(ast.Call):
        for key in _COLLATOR_ARGS:
            value = kwarg(call, key)
            if value is None:
                continue
            if isinstance(value, ast.Call) and call_last(value) == "DataCollatorWithPadding":
                out.append((value, call))
            else:
                name = value.id if isinstance(value, ast.Name) else value.attr if isinstance(
                    value, ast.Attribute) else None
                if name is not None and name in bound:
                    out.append((bound[name], call))
    return out


@register
class TokenLabelsThroughPaddingCollator(Rule):
    code = "PF395"
    name = "token-labels-through-padding-collator"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    needs_text = ("DataCollatorWithPadding", "ForTokenClassification")
    summary = ("a token-classification job pads its batches with `DataCollatorWithPadding`, which leaves the "
               "per-token `labels` unpadded: the first batch of sentences of different lengths fails")
    explanation = """
## What it finds

`DataCollatorWithPadding(tokenizer)` handed to a `Trainer` (`data_collator=`) or a
`DataLoader` (`collate_fn=`) in a file that trains a token-classification model
(`AutoModelForTokenClassification.from_pretrained(...)`, any `*ForTokenClassification`).

## Why it matters

Token classification has one label per token: the `labels` column is a list as long as
the sentence. `DataCollatorWithPadding` calls `tokenizer.pad`, which pads `input_ids`,
`attention_mask` and `token_type_ids` but not `labels`, so the label lists of a batch keep
their own lengths and cannot be stacked: the first batch fails with "ValueError: Unable
to create tensor, you should probably activate truncation and/or padding with
'padding=True' 'truncation=True' to have batched tensors with the same length"
(transformers PR 8274, which added `DataCollatorForTokenClassification` for this).

## How to fix it

Use `DataCollatorForTokenClassification(tokenizer)`: it pads the labels with -100 (ignored
by the loss) to the length of the inputs.

## When preflight stays silent

* The collator is `DataCollatorForTokenClassification` or one of the file's own.
* A tokenizer call of the file pads every row to one length (`padding="max_length"`):
  the label lists are built to that length too.
* The file trains no `*ForTokenClassification` model (sequence classification has one
  label per row, which `DataCollatorWithPadding` handles).
"""
    bad_examples = examples("preflight.rules.code._pf395_examples", "PF395_BAD")
    good_examples = examples("preflight.rules.code._pf395_examples", "PF395_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        task = _token_task(ctx)
        if task is None or _pads_to_fixed_length(ctx):
            return
        seen: set[int] = set()
        for collator, user in _used_collators(ctx):
            if id(collator) in seen or has_unpacking(collator):
                continue
            seen.add(id(collator))
            yield ctx.finding(
                self, collator,
                "`DataCollatorWithPadding` pads input_ids/attention_mask but not the per-token `labels` of this "
                "token-classification job: label lists of different lengths cannot be stacked and the first "
                "batch fails (\"Unable to create tensor ... batched tensors with the same length\"). Use "
                "`DataCollatorForTokenClassification(tokenizer)`, which pads the labels with -100",
                evidence=[ctx.evidence(task, "a token-classification model: one label per token"),
                          ctx.evidence(user, "the collator of this Trainer/DataLoader")])
