"""PF119 cosine-period-beyond-any-run: ``CosineAnnealingLR(opt, T_max)`` with a constant ``T_max`` so large
(``int(1e10)``) that no run takes a measurable part of the cosine: the learning rate never moves."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import UNKNOWN, calls, has_unpacking, is_from, kwarg, literal
from preflight.rules.base import Rule, examples

# a scheduler step count no training run reaches: 1e8 steps is ~3 years at 1 step/second
_BEYOND = 1e8


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or value is UNKNOWN:
        return None
    return float(value) if isinstance(value, (int, float)) else None


def _value(ctx: FileContext, expr: ast.AST, depth: int = 0) -> Optional[float]:
    """A constant step count: a literal, ``int(1e10)``/``float(...)``, arithmetic of those, or a name bound to one."""
    if depth > 4:
        return None
    found = _number(literal(ctx, expr))
    if found is not None:
        return found
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("int", "float") \
            and len(expr.args) == 1 and not expr.keywords:
        return _value(ctx, expr.args[0], depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Mult, ast.Pow)):
        left, right = _value(ctx, expr.left, depth + 1), _value(ctx, expr.right, depth + 1)
        if left is None or right is None:
            return None
        try:
            return left * right if isinstance(expr.op, ast.Mult) else float(left ** right)
        except OverflowError:
            return None
    if isinstance(expr, ast.Name):
        bound = [node.value for node in ctx.nodes(ast.Assign)
                 if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id == expr.id]
        if len(bound) == 1:
            return _value(ctx, bound[0], depth + 1)
    return None


@register
class CosinePeriodBeyondAnyRun(Rule):
    code = "PF119"
    name = "cosine-period-beyond-any-run"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "lightning", "accelerate", "fabric")
    needs_text = ("CosineAnnealingLR",)
    summary = ("`CosineAnnealingLR(optimizer, T_max)` with a constant `T_max` of 1e8 steps or more (`int(1e10)`): "
               "the run never gets a measurable way along the cosine, so the learning rate stays at its initial value")
    explanation = """
## What it finds

A `torch.optim.lr_scheduler.CosineAnnealingLR` whose `T_max` is a constant of at least 1e8
scheduler steps, written in the call or in a name bound once to it:

    MAX_STEP = int(1e10)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, MAX_STEP, eta_min=1e-5)

(bigmb/Unet-Segmentation-Pytorch-Nest-of-Unets, copied into many segmentation repositories).

## Why it matters

`T_max` is the number of `scheduler.step()` calls over which the learning rate goes from its
initial value down to `eta_min` along half a cosine. After `n` steps the learning rate has moved by
a fraction `(1 - cos(pi * n / T_max)) / 2` of the way; with `T_max = 1e10` and even a million steps
that is about 1e-8: the learning rate never leaves its initial value and the schedule the user
configured does nothing (Nest-of-Unets issue 14, "question about learning_rate": "I don't
understand why MAX_STEP is so big ... the learning rate will not change").

## How to fix it

Set `T_max` to the number of scheduler steps the run takes: the epochs when `scheduler.step()` is
called once per epoch, `epochs * len(train_loader)` when it is called once per batch. If a
constant learning rate is what you want, drop the scheduler.

## When preflight stays silent

* `T_max` is below 1e8 or is not a constant preflight can read (an expression of the loader length,
  a command-line argument, a name bound more than once).
* The scheduler is not torch's `CosineAnnealingLR` (`CosineAnnealingWarmRestarts` restarts every
  `T_0` steps and is not matched).
"""
    bad_examples = examples("preflight.rules.code._pf119_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf119_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            if not qual.endswith(".CosineAnnealingLR") or not is_from(qual, "torch.optim", "CosineAnnealingLR") \
                    or has_unpacking(call):
                continue
            expr = kwarg(call, "T_max")
            if expr is None and len(call.args) > 1:
                expr = call.args[1]
            if expr is None:
                continue
            steps = _value(ctx, expr)
            if steps is None or steps < _BEYOND:
                continue
            text = ast.unparse(expr)
            yield ctx.finding(
                self, call,
                f"`T_max` is `{text}` = {steps:.3g} scheduler steps: `CosineAnnealingLR` takes `T_max` steps to "
                "anneal from the initial learning rate to `eta_min`, and no run takes a measurable fraction of "
                f"{steps:.3g} steps (after a million of them the learning rate has moved by ~"
                f"{(1e6 / steps) ** 2 * 2.47:.1g} of the way), so the learning rate stays at its initial value and "
                "the schedule does nothing. Set `T_max` to the number of `scheduler.step()` calls of the run "
                "(the epochs when it steps once per epoch)")
