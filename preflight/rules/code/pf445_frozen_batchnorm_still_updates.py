"""PF445 frozen-batchnorm-still-updates: a BatchNorm frozen with ``requires_grad`` only, never put in eval mode."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_NORMS = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm")


def _norm_attrs(ctx: FileContext) -> set[str]:
    """``name`` of every ``self.name = nn.BatchNorm*(...)`` of the file."""
    out: set[str] = set()
    for assign in ctx.nodes(ast.Assign):
        value = assign.value
        if not (isinstance(value, ast.Call) and (getattr(value.func, "attr", None) in _NORMS
                                                 or getattr(value.func, "id", None) in _NORMS)):
            continue
        for t in assign.targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                out.add(t.attr)
    return out


def _false(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _frozen_norm(stmt: ast.stmt, norms: set[str]) -> Optional[str]:
    """The BatchNorm attribute a statement freezes by ``requires_grad`` alone."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        func = call.func
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Attribute):
            return None
        owner = func.value.attr
        if owner not in norms:
            return None
        if func.attr == "requires_grad_" and call.args and _false(call.args[0]):
            return owner
        if func.attr == "apply" and call.args and any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "requires_grad_"
                and n.args and _false(n.args[0]) for n in ast.walk(call.args[0])):
            return owner
    if isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Call) and isinstance(stmt.iter.func, ast.Attribute) \
            and stmt.iter.func.attr == "parameters" and isinstance(stmt.iter.func.value, ast.Attribute) \
            and stmt.iter.func.value.attr in norms and any(
                isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Attribute)
                and n.targets[0].attr == "requires_grad" and _false(n.value) for n in ast.walk(stmt)):
        return stmt.iter.func.value.attr
    return None


@register
class FrozenBatchNormStillUpdates(Rule):
    code = "PF445"
    needs_text = ("BatchNorm",)
    name = "frozen-batchnorm-still-updates"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "lightning", "accelerate", "fabric")
    summary = "A BatchNorm 'frozen' with `requires_grad_(False)` keeps updating its running statistics in training mode"
    explanation = """
## What it finds

A module attribute built as `nn.BatchNorm1d/2d/3d` or `nn.SyncBatchNorm`
(`self.bn = nn.BatchNorm1d(...)`) that the file freezes only through gradients
(`model.bn.requires_grad_(False)`, `model.bn.apply(lambda m: m.requires_grad_(False))`,
`for p in model.bn.parameters(): p.requires_grad = False`) and never puts in eval mode
(`model.bn.eval()`).

## Why it matters

`requires_grad` freezes the affine weight and bias only. In training mode (which
`trainer.fit` and `model.train()` set on the whole model) a BatchNorm still normalises
with the batch's statistics and overwrites its `running_mean`/`running_var` from the new
data at every step: the "frozen" layer drifts and evaluation uses statistics the
pretrained model never had (chemprop PR 952: "This does not freeze the running stats
... This can be fixed by setting the batch norm module to evaluation mode").

## How to fix it

Also call `model.bn.eval()` after every switch to training mode (a Lightning
`on_train_epoch_start` hook, or after `model.train()`), or build it with
`track_running_stats=False` if no running statistics are wanted.

## When preflight stays silent

* The file calls `.eval()` on that attribute anywhere, or mentions `track_running_stats`.
* The frozen module is not known to be a BatchNorm (a whole backbone: whether it holds
  BatchNorm layers is not read).
"""
    bad_examples = examples("preflight.rules.code._pf445_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf445_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if ctx.mentions("track_running_stats"):
            return
        norms = _norm_attrs(ctx)
        if not norms:
            return
        evaluated = {c.func.value.attr for c in ctx.nodes(ast.Call)
                     if isinstance(c.func, ast.Attribute) and c.func.attr == "eval"
                     and isinstance(c.func.value, ast.Attribute)}
        for stmt in ctx.nodes(ast.Expr, ast.For):
            name = _frozen_norm(stmt, norms - evaluated)
            if name is None:
                continue
            yield ctx.finding(
                self, stmt,
                f"`{name}` is a BatchNorm frozen only through `requires_grad`: in training mode it still normalises "
                "with each batch's statistics and overwrites its running mean and variance from the new data, so "
                f"the 'frozen' layer drifts. Also put it in eval mode (`.{name}.eval()` after every `train()`), or "
                "build it with `track_running_stats=False`")
