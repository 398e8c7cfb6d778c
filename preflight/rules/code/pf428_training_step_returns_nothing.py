"""PF428 training-step-returns-nothing: a ``training_step`` under automatic optimization that never returns its loss."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_LIGHTNING = ("lightning", "pytorch_lightning")


def _imports_lightning(ctx: FileContext) -> bool:
    for node in ctx.nodes(ast.Import, ast.ImportFrom):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        if any(n.split(".")[0] in _LIGHTNING for n in names):
            return True
    return False


def _manual_anywhere(ctx: FileContext) -> bool:
    """Any ``automatic_optimization`` assignment, property or ``manual_backward`` call in the file."""
    for node in ctx.nodes(ast.Assign, ast.AnnAssign, ast.FunctionDef, ast.Attribute):
        if isinstance(node, ast.Attribute) and node.attr == "manual_backward":
            return True
        if isinstance(node, ast.FunctionDef) and node.name == "automatic_optimization":
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for tgt in targets:
                name = tgt.attr if isinstance(tgt, ast.Attribute) else getattr(tgt, "id", "")
                if name == "automatic_optimization" and not (
                        isinstance(node.value, ast.Constant) and node.value.value is True):
                    return True
    return False


def _own_nodes(fn: ast.AST) -> Iterable[ast.AST]:
    """The nodes of a function body, not those of functions or classes nested in it."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _abstract(fn: ast.FunctionDef) -> bool:
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return not body or all(isinstance(s, (ast.Pass, ast.Raise)) for s in body)


def _loss(fn: ast.FunctionDef) -> Optional[ast.AST]:
    """The assignment of a loss in the step (``loss = ...``, ``self.log("train_loss", ...)``'s value)."""
    for node in _own_nodes(fn):
        if isinstance(node, ast.Assign):
            for tgt in node.targets:
                if isinstance(tgt, ast.Name) and "loss" in tgt.id.lower():
                    return node
    return None


@register
class TrainingStepReturnsNothing(Rule):
    code = "PF428"
    needs_text = ("training_step",)
    name = "training-step-returns-nothing"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "A LightningModule's `training_step` computes a loss but never returns it (automatic optimization)"
    explanation = """
## What it finds

A LightningModule's `training_step` that assigns a loss (`loss = self.criterion(...)`)
and has no `return <value>` anywhere, in a file where automatic optimization is
on (no `automatic_optimization = False`, no `manual_backward`).

## Why it matters

Under automatic optimization Lightning calls `backward()` and the optimizer step on
what `training_step` returns; a step that returns `None` tells Lightning to skip
the batch. The run logs its loss, the progress bar moves, and the weights never
change (pytorch_tempest PR 51 added the missing `return loss`). Lightning only
prints a warning.

## How to fix it

`return loss` (or a dict with a `"loss"` key) at the end of `training_step`.

## When preflight stays silent

* Manual optimization anywhere in the file (`automatic_optimization = False`,
  a property of that name, `self.manual_backward`).
* A step with any `return <value>` (returning `None` on purpose for some batches
  is Lightning's documented way to skip them), a generator step, an abstract step
  (`pass`, `raise NotImplementedError`), a step that assigns no loss.
"""
    bad_examples = examples("preflight.rules.code._pf428_examples", "PF428_BAD")
    good_examples = examples("preflight.rules.code._pf428_examples", "PF428_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not _imports_lightning(ctx) or _manual_anywhere(ctx):
            return
        for cls in ctx.nodes(ast.ClassDef):
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef) or fn.name != "training_step" or _abstract(fn):
                    continue
                own = list(_own_nodes(fn))
                if any(isinstance(n, (ast.Yield, ast.YieldFrom)) or (isinstance(n, ast.Return) and n.value is not None)
                       for n in own):
                    continue
                loss = _loss(fn)
                if loss is None:
                    continue
                name = ast.unparse(loss.targets[0])  # type: ignore[attr-defined]
                yield ctx.finding(
                    self, fn,
                    f"`{cls.name}.training_step` computes `{name}` but returns nothing: under automatic optimization "
                    "Lightning skips every batch whose step returns None, so backward and the optimizer step never "
                    f"run and the model never trains. Add `return {name}`",
                    evidence=[ctx.evidence(loss, "the loss is computed here and dropped")])
