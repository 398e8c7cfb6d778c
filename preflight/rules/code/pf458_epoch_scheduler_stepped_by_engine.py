"""PF458 epoch-scheduler-stepped-by-engine: a per-epoch scheduler handed to ``deepspeed.initialize``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_EPOCH_WORDS = ("epoch",)
_STEP_WORDS = ("len(", "step", "iter", "batch")
_SMALL = 100  # a StepLR step_size / MultiStepLR milestone at most this is counted in epochs


def _bound_call(ctx: FileContext, expr: ast.AST, at: ast.AST) -> Optional[ast.Call]:
    """The call ``expr`` is, or the one call a name is assigned from in the same function."""
    if isinstance(expr, ast.Call):
        return expr
    if not isinstance(expr, ast.Name):
        return None
    scope = ctx.enclosing_function(at) or ctx.tree
    found = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
             and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
    return found[0] if len(found) == 1 else None


def _arg(call: ast.Call, name: str, index: int) -> Optional[ast.AST]:
    kw = next((k.value for k in call.keywords if k.arg == name), None)
    if kw is not None:
        return kw
    return call.args[index] if len(call.args) > index else None


def _epoch_schedule(call: ast.Call) -> Optional[str]:
    """Why ``call`` builds a scheduler meant to step once per epoch, or None."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name == "ExponentialLR":
        gamma = _arg(call, "gamma", 1)
        shown = ast.unparse(gamma) if gamma is not None else "gamma"
        return f"`ExponentialLR` multiplies the rate by {shown} on every step() call"
    if name == "StepLR":
        size = _arg(call, "step_size", 1)
        if isinstance(size, ast.Constant) and isinstance(size.value, int) and size.value <= _SMALL:
            return f"`StepLR(step_size={size.value})` counts step() calls, {size.value} of them an epoch-sized period"
    if name == "MultiStepLR":
        marks = _arg(call, "milestones", 1)
        if isinstance(marks, (ast.List, ast.Tuple)) and marks.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, int) and e.value <= _SMALL for e in marks.elts):
            return f"`MultiStepLR(milestones={ast.unparse(marks)})` counts step() calls like epochs"
    if name == "CosineAnnealingLR":
        t_max = _arg(call, "T_max", 1)
        text = ast.unparse(t_max).lower() if t_max is not None else ""
        # `epochs * len(loader)`, `num_epochs * steps_per_epoch`: a period written in steps
        if t_max is not None and any(w in text for w in _EPOCH_WORDS) and not any(w in text for w in _STEP_WORDS):
            return f"`CosineAnnealingLR(T_max={ast.unparse(t_max)})` spans a number of epochs"
    return None


@register
class EpochSchedulerSteppedByEngine(Rule):
    code = "PF458"
    needs_text = ("lr_scheduler",)
    name = "epoch-scheduler-stepped-by-engine"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = "A per-epoch LR scheduler handed to `deepspeed.initialize(lr_scheduler=...)` is stepped on every batch"
    explanation = """
## What it finds

`deepspeed.initialize(..., lr_scheduler=sched)` where `sched` is a torch scheduler
written in epochs: `ExponentialLR`, `StepLR`/`MultiStepLR` with small periods or
milestones, `CosineAnnealingLR(T_max=epochs)`.

## Why it matters

The engine calls the scheduler it manages on every `engine.step()`, i.e. after every
batch (every accumulation boundary), not once per epoch ("DeepSpeed executes the
learning rate scheduler at every training step", DeepSpeed PR 913). An
`ExponentialLR(gamma=0.98)` meant per epoch then decays to nothing within the first
epoch (DALLE-pytorch issue 278: "the learning rate becomes 0 in the first epoch");
a `StepLR(step_size=30)` drops every 30 batches.

## How to fix it

Keep the scheduler out of `deepspeed.initialize` and call `sched.step()` yourself at
the end of each epoch, or write the schedule in steps (`total_num_steps`, DeepSpeed's
`WarmupDecayLR`).

## When preflight stays silent

* The scheduler is step-based (`OneCycleLR`, `LambdaLR`, `get_*_schedule_with_warmup`,
  a `StepLR` with a period over 100) or built where preflight cannot see.
"""
    bad_examples = examples("preflight.rules.code._pf458_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf458_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "initialize"
                    and isinstance(func.value, ast.Name) and func.value.id == "deepspeed"):
                continue
            kw = next((k for k in call.keywords if k.arg == "lr_scheduler"), None)
            if kw is None:
                continue
            built = _bound_call(ctx, kw.value, call)
            if built is None:
                continue
            why = _epoch_schedule(built)
            if why is None:
                continue
            message = (f"`lr_scheduler={ast.unparse(kw.value)}` hands a per-epoch schedule to `deepspeed.initialize`: "
                       f"{why}, and the engine calls it after every batch (`engine.step()`), not once per epoch, "
                       "so the schedule runs through in the first epoch. Step it yourself at each epoch's end and "
                       "leave it out of `deepspeed.initialize`, or write the schedule in steps")
            yield ctx.finding(self, kw.value, message,
                              evidence=[ctx.evidence(built, "the scheduler is built here")])
