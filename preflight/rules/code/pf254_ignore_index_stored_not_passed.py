"""PF254 ignore-index-stored-not-passed: a module keeps ``self.ignore_index`` but its cross-entropy is
called without ``ignore_index=``, so the padding it meant to skip is scored."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, kwarg
from preflight.rules.base import Rule, examples

_ATTRS = frozenset({"ignore_index", "ignore_idx", "ignore_id", "ignore_label", "ignore_token_id"})
# torch losses that take ignore_index (functional and module forms)
_LOSSES = frozenset({"torch.nn.functional.cross_entropy", "torch.nn.functional.nll_loss",
                     "torch.nn.CrossEntropyLoss", "torch.nn.NLLLoss",
                     "torch.nn.modules.loss.CrossEntropyLoss", "torch.nn.modules.loss.NLLLoss"})


def _stored(cls: ast.ClassDef) -> Optional[ast.Assign]:
    """``self.ignore_index = ...`` in the class."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Attribute) and t.attr in _ATTRS and isinstance(t.value, ast.Name) \
                        and t.value.id == "self":
                    return node
    return None


def _read(tree: ast.AST, attr: str) -> bool:
    """``<x>.attr`` read anywhere (``self.ignore_index``, ``model.ignore_index``, ``getattr(.., "attr")``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.Constant) and node.value == attr:
            return True
    return False


def _per_element(call: ast.Call) -> bool:
    """``reduction="none"``: the caller masks or weights the per-position losses itself."""
    reduction = kwarg(call, "reduction")
    return isinstance(reduction, ast.Constant) and reduction.value == "none"


@register
class IgnoreIndexStoredNotPassed(Rule):
    code = "PF254"
    name = "ignore-index-stored-not-passed"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("A module stores `self.ignore_index` but calls its cross-entropy without `ignore_index=`: "
               "padding positions are scored")
    frameworks = ("pytorch",)
    needs_text = ("ignore_",)
    explanation = """
## What it finds

A class that assigns `self.ignore_index` (or `ignore_idx`, `ignore_id`, `ignore_label`,
`ignore_token_id`), never reads that attribute anywhere in the file, and computes its
loss with `F.cross_entropy`/`F.nll_loss` or builds `nn.CrossEntropyLoss`/`nn.NLLLoss`
without an `ignore_index=` argument (no call of the class passes one).

## Why it matters

The stored value is the target id the author meant to skip (caption or sequence
padding, a "void" segmentation class). The loss never sees it: `ignore_index` defaults
to -100, so every padding position is a training target with full weight, the model
learns to predict padding, and the loss is averaged over padding too. Nothing fails.
Reported in lucidrains/DALLE-pytorch issue 57 ("ignore_index defined but not used": the
captions are padded with id 0 and `self.ignore_index = 0`, but `F.cross_entropy(logits,
labels)` is called without it).

## How to fix it

Pass it: `F.cross_entropy(logits, labels, ignore_index=self.ignore_index)`, or mask the
labels with -100 before the loss.

## When preflight stays silent

* The attribute is read somewhere in the file (a mask `labels == self.ignore_index`, a
  `getattr`, another object's `model.ignore_index`), or any loss call of the class
  passes `ignore_index=` (or `**kwargs`).
* The class computes no cross-entropy / NLL loss of its own, or only with `reduction="none"`
  (the per-position losses are masked or weighted afterwards: torchtune's `LinearGRPOLoss`
  multiplies them by its padding mask).
"""
    bad_examples = examples("preflight.rules.code._pf254_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf254_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        losses = {id(c): q.rsplit(".", 1)[-1] for c, q in calls(ctx) if q in _LOSSES}
        if not losses:
            return
        for cls in ctx.nodes(ast.ClassDef):
            store = _stored(cls)
            if store is None:
                continue
            target = next(t for t in store.targets if isinstance(t, ast.Attribute) and t.attr in _ATTRS)
            assert isinstance(target, ast.Attribute)
            if _read(ctx.tree, target.attr):
                continue
            own = [c for c in ast.walk(cls) if isinstance(c, ast.Call) and id(c) in losses
                   and not _per_element(c)]
            if not own or any(kwarg(c, "ignore_index") is not None or has_unpacking(c) for c in own):
                continue
            for call in own:
                yield ctx.finding(
                    self, call,
                    f"`{cls.name}` stores `self.{target.attr}` (line {store.lineno}) but never reads it, and "
                    f"`{losses[id(call)]}` is called without `ignore_index=`: the loss keeps its default -100, "
                    f"so the positions the stored id marks (padding) are scored as targets. Pass "
                    f"`ignore_index=self.{target.attr}`",
                    evidence=[ctx.evidence(store, f"self.{target.attr} is stored here")])
