"""PF632 lr-scheduler-step-passes-epoch: a Lightning ``lr_scheduler_step`` override hands the epoch
number to a per-step PyTorch schedule."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import STEP_SCHEDULERS, call_last, const_str
from preflight.rules.base import Rule, examples

# torch.optim.lr_scheduler classes (and transformers' LambdaLR factories) whose ``step(epoch)``
# sets ``last_epoch = epoch``: the argument IS the schedule position
_TORCH_SCHEDULERS = frozenset({
    "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
    "PolynomialLR", "CosineAnnealingLR", "CosineAnnealingWarmRestarts", "SequentialLR", "ChainedScheduler",
}) | STEP_SCHEDULERS


def _scheduler_built(cls: ast.ClassDef) -> Optional[tuple[ast.Call, bool]]:
    """The PyTorch scheduler ``configure_optimizers`` builds, and whether a dict of the method says
    ``"interval": "step"``; None when the method builds no known PyTorch scheduler (a timm
    scheduler takes the epoch in ``step(epoch)`` by design) or more than one kind."""
    for fn in cls.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name == "configure_optimizers"):
            continue
        calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and call_last(n)[:1].isupper()
                 and (call_last(n).endswith(("LR", "Scheduler", "WarmRestarts")) or call_last(n) in STEP_SCHEDULERS)]
        calls += [n for n in ast.walk(fn) if isinstance(n, ast.Call) and call_last(n) in STEP_SCHEDULERS
                  and n not in calls]
        if not calls or any(call_last(c) not in _TORCH_SCHEDULERS for c in calls):
            return None
        if any(isinstance(n, ast.Attribute) and n.attr in ("scheduler",) and isinstance(n.value, ast.Name)
               and n.value.id == "timm" for n in ast.walk(fn)):
            return None
        per_step = any(isinstance(d, ast.Dict) and any(
            const_str(k) == "interval" and const_str(v) == "step" for k, v in zip(d.keys, d.values))
            for d in ast.walk(fn)) or any(
            isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "dict" and any(
                k.arg == "interval" and const_str(k.value) == "step" for k in c.keywords) for c in ast.walk(fn))
        return calls[0], per_step
    return None


def _epoch_argument(call: ast.Call) -> Optional[ast.expr]:
    """The argument of ``scheduler.step(...)`` that is an epoch count (``self.current_epoch``,
    ``epoch``), not a step count."""
    args = [*call.args, *(k.value for k in call.keywords if k.arg == "epoch")]
    for arg in args[:1]:
        words = [n.attr if isinstance(n, ast.Attribute) else n.id for n in ast.walk(arg)
                 if isinstance(n, (ast.Attribute, ast.Name))]
        if any("epoch" in w.lower() for w in words) and not any("step" in w.lower() for w in words):
            return arg
    return None


@register
class LrSchedulerStepPassesEpoch(Rule):
    code = "PF632"
    needs_text = ("lr_scheduler_step",)
    name = "lr-scheduler-step-passes-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("A LightningModule's `lr_scheduler_step` override calls `scheduler.step(epoch=self.current_epoch)` "
               "on a PyTorch schedule that Lightning steps every optimizer step")
    explanation = """
## What it finds

A LightningModule overrides `lr_scheduler_step(self, scheduler, metric)` and calls
`scheduler.step(...)` with the epoch number (`scheduler.step(epoch=self.current_epoch)`,
`scheduler.step(self.current_epoch)`), while its `configure_optimizers` builds a PyTorch
schedule (`torch.optim.lr_scheduler.*`, transformers' `get_*_schedule_with_warmup`)
that advances per step: `"interval": "step"` in the scheduler dict, or a per-step class
such as `OneCycleLR`.

## Why it matters

`_LRScheduler.step(epoch)` does not advance the schedule by one: it sets
`last_epoch = epoch` and computes the rate at that position (deprecated, but still
honoured). Lightning calls the override after every optimizer step, so a schedule sized in
optimizer steps (`total_steps=self.trainer.estimated_stepping_batches`) is pinned to
positions 0, 1, 2 ... max_epochs out of tens of thousands: a OneCycle or warmup schedule
never leaves its first values (OpenSTL issue 113: "There is a conflict between
lr_scheduler_step and configure_optimizers").

## How to fix it

Drop the override (Lightning steps the scheduler itself), or call `scheduler.step()`
without an argument.

## When preflight stays silent

* `scheduler.step()` without an argument, or with a step count (`self.global_step`).
* The scheduler is not a PyTorch one (timm's schedulers take the epoch in `step(epoch)` by
  design: the override exists for them), or `configure_optimizers` builds one preflight
  cannot name.
* The schedule is stepped per epoch (`"interval": "epoch"`, the default) and is not a per-step
  class: passing the epoch then names the position the schedule has anyway.
"""
    bad_examples = examples("preflight.rules.code._pf632_examples", "PF632_BAD")
    good_examples = examples("preflight.rules.code._pf632_examples", "PF632_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            override = next((fn for fn in cls.body if isinstance(fn, ast.FunctionDef)
                             and fn.name == "lr_scheduler_step" and len(fn.args.args) >= 2), None)
            if override is None:
                continue
            built = _scheduler_built(cls)
            if built is None:
                continue
            sched, per_step = built
            if not per_step and call_last(sched) not in STEP_SCHEDULERS:
                continue
            param = override.args.args[1].arg
            for call in ast.walk(override):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                        and call.func.attr == "step" and isinstance(call.func.value, ast.Name)
                        and call.func.value.id == param):
                    continue
                arg = _epoch_argument(call)
                if arg is None:
                    continue
                why = "its scheduler dict says `\"interval\": \"step\"`" if per_step else \
                    f"`{call_last(sched)}` is a per-step schedule"
                yield ctx.finding(
                    self, call,
                    f"`{ast.unparse(call)}` in `lr_scheduler_step`: Lightning calls the override after every "
                    f"optimizer step ({why}), and `step(epoch)` sets the schedule's position to "
                    f"`{ast.unparse(arg)}` instead of advancing it by one, so `{call_last(sched)}`, sized in "
                    "optimizer steps, never leaves its first few values. Call `scheduler.step()` without the "
                    "epoch, or drop the override",
                    evidence=[ctx.evidence(sched, f"the PyTorch schedule `{call_last(sched)}` is built here")])
