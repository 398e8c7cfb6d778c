"""PF390 cosine-eta-min-at-learning-rate: a cosine annealing schedule whose ``eta_min`` is not below
the optimizer's learning rate, so the schedule never moves the learning rate."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    UNKNOWN,
    calls,
    has_unpacking,
    is_from,
    kwarg,
    literal,
    target_text,
)
from preflight.rules.base import Rule, examples

# scheduler -> position of eta_min among the positional arguments
_COSINE = {"CosineAnnealingLR": 2, "CosineAnnealingWarmRestarts": 3}


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or value is UNKNOWN:
        return None
    return float(value) if isinstance(value, (int, float)) else None


def _optimizer_lr(ctx: FileContext, sched: ast.Call) -> Optional[tuple[ast.Call, float]]:
    """The ``torch.optim`` constructor the scheduler's optimizer name was bound to, with its literal lr."""
    opt = sched.args[0] if sched.args else kwarg(sched, "optimizer")
    name = target_text(opt) if opt is not None else None
    if not name:
        return None
    found: list[ast.Call] = []
    for node in ctx.nodes(ast.Assign):
        if len(node.targets) == 1 and target_text(node.targets[0]) == name and isinstance(node.value, ast.Call) \
                and node.lineno < sched.lineno:
            found.append(node.value)
    if not found:
        return None
    ctor = max(found, key=lambda c: c.lineno)
    qual = next((q for c, q in calls(ctx) if c is ctor), "")
    if not qual.startswith("torch.optim.") or has_unpacking(ctor):
        return None
    lr = _number(literal(ctx, kwarg(ctor, "lr")))
    if lr is None or lr <= 0:
        return None
    return ctor, lr


@register
class CosineEtaMinAtLearningRate(Rule):
    code = "PF390"
    name = "cosine-eta-min-at-learning-rate"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("CosineAnnealing",)
    summary = ("`CosineAnnealingLR` / `CosineAnnealingWarmRestarts` with `eta_min` equal to (or above) the "
               "optimizer's learning rate: the cosine schedule keeps the learning rate constant")
    explanation = """
## What it finds

A `torch.optim.lr_scheduler.CosineAnnealingLR` (or `CosineAnnealingWarmRestarts`) whose `eta_min`
resolves (a literal, a constant, an argparse default) to a value equal to or larger than the `lr`
of the `torch.optim` optimizer it schedules.

## Why it matters

The cosine schedule moves the learning rate from the optimizer's initial `lr` to `eta_min`. With
`eta_min == lr` the curve runs from the value to itself: the learning rate is constant for the
whole run and the scheduler does nothing (KeywordsSpotting-EfficientNet-A0 issue 1: `--lr` and
`--min_lr` both defaulted to 1e-3, "the actual lr is 1e-3 during the entire training process").
With `eta_min > lr` the schedule *raises* the learning rate. Nothing fails; the run simply trains
without the decay it was written to have.

## How to fix it

Set `eta_min` well below the initial learning rate (typically 0 or `lr / 100`).

## When preflight stays silent

* Either value cannot be resolved in the file, or the optimizer takes `**kwargs` or per-group
  learning rates without a top-level `lr`.
* The optimizer is not a `torch.optim` class bound to the name the scheduler receives.
* Values given on the command line are not seen: the rule reads the argparse defaults.
"""
    bad_examples = examples("preflight.rules.code._pf390_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf390_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            last = qual.rsplit(".", 1)[-1]
            if last not in _COSINE or not is_from(qual, "torch.optim", last) or has_unpacking(call):
                continue
            position = _COSINE[last]
            expr = kwarg(call, "eta_min")
            if expr is None and len(call.args) > position:
                expr = call.args[position]
            eta_min = _number(literal(ctx, expr)) if expr is not None else None
            if eta_min is None:
                continue
            found = _optimizer_lr(ctx, call)
            if found is None:
                continue
            ctor, lr = found
            if eta_min < lr:
                continue
            relation = "equal to" if eta_min == lr else "above"
            yield ctx.finding(
                self, call,
                f"`eta_min` resolves to {eta_min:g}, {relation} the optimizer's learning rate {lr:g} "
                f"(line {ctor.lineno}): the cosine runs from {lr:g} to {eta_min:g}, so the learning rate "
                + ("stays constant for the whole run and the schedule does nothing. "
                   if eta_min == lr else "rises instead of decaying. ")
                + "Set `eta_min` well below the initial learning rate (e.g. 0 or lr / 100)",
                evidence=[ctx.evidence(ctor, f"the optimizer starts at lr {lr:g}")])
