"""PF474 batch-period-scheduler-stepped-per-epoch: a schedule whose period is counted in batches and whose
``step()`` runs once per epoch, after the batch loop."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.code._scheduler_steps import (
    SCHEDULER_PERIOD,
    assigned_once,
    call_arg,
    is_batch_loop,
)
from preflight.rules.code.pf440_epoch_scheduler_stepped_per_batch import bare_scheduler_steps

# ``len(<loader>)`` or a name that counts batches/iterations/optimizer steps (``step_size`` alone does not:
# StepLR's own keyword, usually written in epochs)
_LOADER_LEN = re.compile(r"\blen\(\s*[\w.]*(loader|_dl|dataloader|batches)\w*\s*\)|\blen\(\s*dl\s*\)", re.I)
_BATCH_NAMES = re.compile(r"(steps_per_epoch|iters?_per_epoch|batches_per_epoch|num_batches|n_batches|"
                          r"num_iters|num_iterations|max_iters|total_iters|total_steps|num_training_steps|"
                          r"max_steps|num_steps|train_steps|total_batches)", re.I)


# schedules meant to be stepped on every batch, whose length is an argument: (keyword, position or None when
# only the keyword is read); ``OneCycleLR`` is read apart (``steps_per_epoch`` is a batch count by definition)
_PER_STEP_SCHEDULES = {
    "get_linear_schedule_with_warmup": ("num_training_steps", 2),
    "get_cosine_schedule_with_warmup": ("num_training_steps", 2),
    "get_polynomial_decay_schedule_with_warmup": ("num_training_steps", 2),
    "get_cosine_with_hard_restarts_schedule_with_warmup": ("num_training_steps", 2),
    "get_constant_schedule_with_warmup": ("num_warmup_steps", 1),
    "get_scheduler": ("num_training_steps", None),
}
_NAMES = frozenset(SCHEDULER_PERIOD) | frozenset(_PER_STEP_SCHEDULES) | {"OneCycleLR"}


def _one_cycle_period(call: ast.Call, scope: ast.AST) -> Optional[str]:
    """``steps_per_epoch=len(loader)`` (anything but the literal 1), else a ``total_steps`` counted in batches."""
    per_epoch = call_arg(call, "steps_per_epoch", 4)
    if per_epoch is not None:
        if isinstance(per_epoch, ast.Constant) and per_epoch.value in (1, None):
            return None
        return f"steps_per_epoch={ast.unparse(per_epoch)}"
    return _counted_in_batches(call, scope, "total_steps", 2)


def _batch_period(call: ast.Call, scope: ast.AST) -> Optional[str]:
    """``T_max=len(train_loader)`` as shown, when the scheduler's period is counted in batches or steps."""
    name = call_last(call)
    if name == "OneCycleLR":
        return _one_cycle_period(call, scope)
    if name in _PER_STEP_SCHEDULES:
        keyword, position = _PER_STEP_SCHEDULES[name]
        return _counted_in_batches(call, scope, keyword, position)
    keyword, index = SCHEDULER_PERIOD[name]
    return _counted_in_batches(call, scope, keyword, index)


def _counted_in_batches(call: ast.Call, scope: ast.AST, keyword: str, index: Optional[int]) -> Optional[str]:
    arg = call_arg(call, keyword, index) if index is not None else \
        next((k.value for k in call.keywords if k.arg == keyword), None)
    if arg is None:
        return None
    text = ast.unparse(arg)
    seen = text
    if isinstance(arg, ast.Name):
        value = assigned_once(scope, arg.id)
        if value is not None:
            seen += " " + ast.unparse(value)
    if not (_LOADER_LEN.search(seen) or _BATCH_NAMES.search(seen)):
        return None
    return f"{keyword}={text}"


def _loops(ctx: FileContext, node: ast.AST) -> list[Union[ast.For, ast.AsyncFor, ast.While]]:
    out: list[Union[ast.For, ast.AsyncFor, ast.While]] = []
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            break
        if isinstance(anc, (ast.For, ast.AsyncFor, ast.While)):
            out.append(anc)
    return out


def _epoch_loop(ctx: FileContext, step: ast.AST) -> Optional[Union[ast.For, ast.AsyncFor]]:
    """The loop whose body runs ``step`` once per pass when that loop holds a batch loop that ``step`` is not
    inside: ``for epoch in ...: for batch in loader: ...; scheduler.step()``."""
    loops = _loops(ctx, step)
    if not loops:
        return None
    inner = loops[0]
    if not isinstance(inner, (ast.For, ast.AsyncFor)) or is_batch_loop(inner):
        return None
    # a loop over epochs says so (``for epoch in range(...)``); a loop over optimizer updates holding a loop over
    # its micro-batches (``for _ in range(total_updates): for batch in batch_samples: ...``) steps per update
    if "epoch" not in (ast.unparse(inner.target) + " " + ast.unparse(inner.iter)).lower():
        return None
    for node in ast.walk(inner):
        if isinstance(node, (ast.For, ast.AsyncFor)) and node is not inner and is_batch_loop(node) \
                and not any(sub is step for sub in ast.walk(node)):
            return inner
    return None


def _rebound(ctx: FileContext, call: ast.Call, target: str) -> bool:
    """``target`` is also built by another constructor in the same scope (``if args.lradj == "COS": scheduler =
    CosineAnnealingLR(..., T_max=20) else: scheduler = OneCycleLR(...)``): which one a given ``step()`` steps
    depends on the arm taken (Time-LLM steps each in its own loop under the same test)."""
    scope = ctx.enclosing(call, ast.ClassDef) if target.startswith("self.") else ctx.enclosing_function(call)
    for node in ast.walk(scope if scope is not None else ctx.tree):
        if (isinstance(node, ast.Assign) and node.value is not call and isinstance(node.value, ast.Call)
                and len(node.targets) == 1 and target_text(node.targets[0]) == target
                and call_last(node.value) != "prepare"):
            return True
    return False


@register
class BatchPeriodSchedulerSteppedPerEpoch(Rule):
    code = "PF474"
    needs_text = ("lr_scheduler", "OneCycleLR", "_schedule_with_warmup", "get_scheduler")
    name = "batch-period-scheduler-stepped-per-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "fabric")
    summary = "A scheduler whose period is counted in batches is stepped once per epoch"
    explanation = """
## What it finds

A torch scheduler built in the same function (or, for `self.scheduler`, the same class; in a
plain script, at module level) with its period counted in batches or steps
(`CosineAnnealingLR(optimizer, T_max=len(train_loader))`, `StepLR(step_size=steps_per_epoch * 30)`,
`CosineAnnealingWarmRestarts(T_0=num_training_steps)`), a `OneCycleLR` given
`steps_per_epoch=` (anything but 1) or a `total_steps` counted in batches, or a transformers
warm-up schedule (`get_linear_schedule_with_warmup`, `get_cosine_schedule_with_warmup`,
`get_scheduler(..., num_training_steps=...)`) whose `num_training_steps` is counted in
batches, whose `scheduler.step()` runs in the epoch loop, after (outside) the loop over the
data loader.

## Why it matters

A scheduler counts `step()` calls. Stepped once per epoch, a cosine schedule with
`T_max=len(train_loader)` advances one step per epoch through a period of hundreds or
thousands: over the whole run the learning rate moves through a small fraction of its
cosine and barely decays (SimCLR issue 8, "'CosineAnnealingLR' never works with the wrong
position of 'scheduler.step()'"); a `StepLR` sized in batches never reaches its first decay.
A `OneCycleLR(steps_per_epoch=len(loader), epochs=E)` stepped per epoch walks E of its
E x len(loader) steps: the learning rate stays near `max_lr / div_factor`, still rising, and
never anneals (pytorch issue 65417, "OneCycleLR updating on epoch rather than on step";
CodefyUI issue 244). A warm-up schedule sized in batches and stepped per epoch spends the
whole run in its warm-up (k-diffusion issue 50, solo-learn issue 264 ask which unit it is).

## How to fix it

Size the period in the unit it is stepped in (`T_max=num_epochs`, minus any warm-up
epochs that do not step it), or call `scheduler.step()` on every batch.

## When preflight stays silent

* The period names only epochs, or nothing preflight reads as a batch count (`step_size`
  alone is StepLR's keyword, not a count of batches; `OneCycleLR(total_steps=epochs)` or
  `steps_per_epoch=1`; `num_training_steps=num_epochs`).
* `step()` runs inside the batch loop (the rule for the opposite mistake is PF440), is
  given an argument, or runs in a loop that holds no loop over a data loader.
* The scheduler is built where preflight cannot see (a parameter of the function).
"""
    bad_examples = examples("preflight.rules.code._pf474_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf474_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, target, period, step in bare_scheduler_steps(ctx, _batch_period, _NAMES, module_level=True):
            loop = _epoch_loop(ctx, step)
            if loop is None or _rebound(ctx, call, target):
                continue
            name = call_last(call)
            if name == "OneCycleLR":
                effect = ("the one-cycle schedule advances one step per epoch through a cycle of the whole run's "
                          "batches, so the learning rate stays near its start, low and still rising, and never "
                          "anneals (pytorch issue 65417)")
            elif name in _PER_STEP_SCHEDULES:
                effect = ("the schedule advances one step per epoch through a length counted in batches, so the "
                          "warm-up alone can outlast the run and the decay never comes")
            else:
                effect = ("the schedule advances one step per epoch through a period of a whole epoch's batches, "
                          "so the learning rate barely moves over the run (SimCLR issue 8)")
            yield ctx.finding(
                self, step,
                f"`{target}.step()` runs once per pass of the epoch loop (`for {ast.unparse(loop.target)} in "
                f"...`), after the batch loop, but `{name}({period})` counts its period in batches: {effect}. "
                "Size the period in epochs (the epochs that step it) or step the scheduler on every batch",
                evidence=[ctx.evidence(call, "the scheduler is built here, its period in batches")])

