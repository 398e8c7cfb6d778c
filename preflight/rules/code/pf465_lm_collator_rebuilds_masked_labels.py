"""PF465 lm-collator-rebuilds-masked-labels: ``DataCollatorForLanguageModeling(mlm=False)`` over examples
whose ``labels`` the script masked with -100: the collator replaces them with a copy of ``input_ids``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples


def _is_ignore(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return node.operand.value == 100
    if isinstance(node, ast.Constant):
        return node.value == -100
    return isinstance(node, (ast.Name, ast.Attribute)) and "IGNORE" in ast.unparse(node).upper()


def _labels_key(target: ast.AST) -> bool:
    """``example["labels"]`` (a whole entry, not ``labels[mask]`` nor ``ex["labels"][mask]``)."""
    return (isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant)
            and target.slice.value == "labels")


def _pad_choices(value: ast.AST) -> set[int]:
    """The ids of the -100 constants chosen by a test on the pad token (``-100 if t == pad_token_id
    else t``): padding masked, which the collator does itself."""
    out: set[int] = set()
    for node in ast.walk(value):
        if isinstance(node, ast.IfExp) and "pad" in ast.unparse(node.test).lower():
            out.update(id(m) for m in ast.walk(node.body))
    return out


def _masked_list(value: ast.AST) -> bool:
    """A value built with -100 (or an IGNORE_INDEX constant) inside a list, not only for padding."""
    pads = _pad_choices(value)
    return any(isinstance(n, (ast.List, ast.ListComp)) and any(_is_ignore(m) and id(m) not in pads
                                                                for m in ast.walk(n))
               for n in ast.walk(value))


def _labels_use(node: ast.AST, name: str) -> bool:
    """``node`` hands the local ``name`` on as an example's labels: ``{"labels": name}``,
    ``dict(labels=name)`` or ``example["labels"] = name``."""
    def is_name(v: Optional[ast.AST]) -> bool:
        return isinstance(v, ast.Name) and v.id == name

    if isinstance(node, ast.Dict):
        return any(isinstance(k, ast.Constant) and k.value == "labels" and is_name(v)
                   for k, v in zip(node.keys, node.values))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return any(kw.arg == "labels" and is_name(kw.value) for kw in node.keywords)
    if isinstance(node, ast.Assign):
        return is_name(node.value) and any(_labels_key(t) for t in node.targets)
    return False


_PAD_WORDS = ("pad", "mask")
_PROMPT_WORDS = ("prompt", "instruction", "user", "source", "question", "query", "context", "human")


def _prompt_test(test: ast.AST) -> bool:
    """A condition that masks more than padding: it names the prompt, or names no padding at all."""
    text = ast.unparse(test).lower()
    return any(w in text for w in _PROMPT_WORDS) or not any(w in text for w in _PAD_WORDS)


def _prompt_item_mask(ctx: FileContext, node: ast.Assign) -> bool:
    """``labels[i] = -100`` (or ``labels[:n] = ...``) on a local the function hands on as the labels, under a
    condition that is not only a padding test (``if i < prompt_len or mask[i] == 0``) or on a prefix slice:
    a prompt masked item by item."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Subscript) or not _is_ignore(node.value):
        return False
    target = node.targets[0]
    if not isinstance(target.value, ast.Name):
        return False
    scope = ctx.enclosing_function(node)
    if scope is None or not any(_labels_use(n, target.value.id) for n in ast.walk(scope)):
        return False
    tests: list[ast.AST] = []
    for anc in ctx.ancestors(node):
        if anc is scope:
            break
        if isinstance(anc, ast.If):
            test = anc.test
            tests.extend(test.values if isinstance(test, ast.BoolOp) else [test])
    if tests:
        return any(_prompt_test(t) for t in tests)
    index = target.slice
    return isinstance(index, ast.Slice) and index.lower is None and index.upper is not None and _prompt_test(index)


def _masking(ctx: FileContext) -> Optional[ast.Assign]:
    """``example["labels"] = [-100] * n + ...``: a whole labels entry built with -100 (or an IGNORE_INDEX
    constant) in a list, directly or through a local the function then returns or stores as the
    example's ``labels`` (``labels = [-100] * len(prompt) + reply; return {..., "labels": labels}``).
    Pad masking in place (``labels[labels == pad] = -100``) is what the collator does itself and does
    not count."""
    for node in ctx.nodes(ast.Assign):
        if _prompt_item_mask(ctx, node):
            return node
        if not _masked_list(node.value):
            continue
        if any(_labels_key(t) for t in node.targets):
            return node
        names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        scope = ctx.enclosing_function(node)
        if names and scope is not None and any(_labels_use(n, name) for n in ast.walk(scope) for name in names):
            return node
    return None


def _collator_function(ctx: FileContext, masked: ast.Assign) -> bool:
    """The -100 labels are built inside a function the file uses as a collator (``data_collator =
    my_data_collator``, ``Trainer(data_collator=...)``, ``collate_fn=...``): it builds each batch's
    labels itself, so it is an alternative to the LM collator, not data the LM collator rebuilds
    (LLM-Tuning picks one of the two on ``no_prompt_loss``)."""
    fn = ctx.enclosing(masked, ast.FunctionDef, ast.AsyncFunctionDef)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for node in ctx.nodes(ast.Assign):
        if isinstance(node.value, ast.Name) and node.value.id == fn.name and any(
                "collat" in ast.unparse(t).lower() for t in node.targets):
            return True
    return any(isinstance(k.value, ast.Name) and k.value.id == fn.name and k.arg in ("data_collator", "collate_fn")
               for c in ctx.nodes(ast.Call) for k in c.keywords)


@register
class LmCollatorRebuildsMaskedLabels(Rule):
    code = "PF465"
    needs_text = ("DataCollatorForLanguageModeling",)
    name = "lm-collator-rebuilds-masked-labels"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("`DataCollatorForLanguageModeling(mlm=False)` replaces the `labels` the script masked with -100 "
               "by a copy of `input_ids`")
    explanation = """
## What it finds

A file that masks part of each example's `labels` with -100 (`example["labels"] =
[-100] * n_prompt + ...`, or an `IGNORE_INDEX` constant) and collates with
`DataCollatorForLanguageModeling(tokenizer, mlm=False)`.

## Why it matters

With `mlm=False` that collator does not read the dataset's `labels`: it pads the batch
and builds new labels as a copy of `input_ids` (padding set to -100). The prompt
masking is silently lost, so the loss covers the instructions as well as the answers
and `train_on_inputs=False` has no effect (Alpaca-CoT issue 143: "This data collator
actually ignores the labels field ... and uses input_ids as the new labels").

## How to fix it

Use a collator that pads the labels you built:
`DataCollatorForSeq2Seq(tokenizer, pad_to_multiple_of=8, return_tensors="pt",
padding=True)` (as alpaca-lora does), or TRL's completion-only collation.

A local copy of the ids masked item by item (`labels = list(input_ids)`, then
`labels[i] = -100` under `if i < prompt_len ...`, or `labels[:n] = ...`) and handed on as the
example's labels counts as built labels too (transformers issue 26357).

## When preflight stays silent

* No whole `labels` entry is built with -100 in a list in the file (directly, or as a local
  that the same function returns or stores under `"labels"`) (masking padding, in
  place `labels[labels == pad] = -100` or as `-100 if t == pad_token_id else t` in a list, is
  what the collator does anyway; so is `labels[i] = -100` under a test on the pad id or the
  attention mask alone), or the
  collator is another class, or `mlm` is not literally False.
* The -100 labels are built inside a function the file uses as its collator (assigned to a
  `*collator*` name, or passed as `data_collator=` / `collate_fn=`): that collator and the LM
  collator are alternatives, each building its own batch labels.
"""
    bad_examples = examples("preflight.rules.code._pf465_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf465_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        collators = [c for c in ctx.nodes(ast.Call) if call_last(c) == "DataCollatorForLanguageModeling"
                     and any(k.arg == "mlm" and isinstance(k.value, ast.Constant) and k.value.value is False
                             for k in c.keywords)]
        if not collators:
            return
        masked = _masking(ctx)
        if masked is None or _collator_function(ctx, masked):
            return
        for collator in collators:
            yield ctx.finding(
                self, collator,
                "`DataCollatorForLanguageModeling(mlm=False)` ignores the examples' `labels` and rebuilds them as a "
                "copy of `input_ids`: the -100 masking this file writes into `labels` is lost, so the loss also "
                "covers the tokens it meant to mask (the prompt). Collate with `DataCollatorForSeq2Seq(tokenizer, "
                "padding=True)`, which pads the labels you built",
                evidence=[ctx.evidence(masked, "the labels are masked with -100 here")])
