"""PF474 batch-period-scheduler-stepped-per-epoch: a schedule whose period is counted in batches and whose
``step()`` runs once per epoch, after the batch loop."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
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


def _batch_period(call: ast.Call, scope: ast.AST) -> Optional[str]:
    """``T_max=len(train_loader)`` as shown, when the scheduler's period is counted in batches or steps."""
    keyword, index = SCHEDULER_PERIOD[call_last(call)]
    arg = call_arg(call, keyword, index)
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
    for node in ast.walk(inner):
        if isinstance(node, (ast.For, ast.AsyncFor)) and node is not inner and is_batch_loop(node) \
                and not any(sub is step for sub in ast.walk(node)):
            return inner
    return None


@register
class BatchPeriodSchedulerSteppedPerEpoch(Rule):
    code = "PF474"
    needs_text = ("lr_scheduler",)
    name = "batch-period-scheduler-stepped-per-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "fabric")
    summary = "A scheduler whose period is counted in batches is stepped once per epoch"
    explanation = """
## What it finds

A torch scheduler built in the same function (or, for `self.scheduler`, the same class)
with its period counted in batches or steps (`CosineAnnealingLR(optimizer,
T_max=len(train_loader))`, `StepLR(step_size=steps_per_epoch * 30)`,
`CosineAnnealingWarmRestarts(T_0=num_training_steps)`) whose `scheduler.step()` runs in the
epoch loop, after (outside) the loop over the data loader.

## Why it matters

A scheduler counts `step()` calls. Stepped once per epoch, a cosine schedule with
`T_max=len(train_loader)` advances one step per epoch through a period of hundreds or
thousands: over the whole run the learning rate moves through a small fraction of its
cosine and barely decays (SimCLR issue 8, "'CosineAnnealingLR' never works with the wrong
position of 'scheduler.step()'"); a `StepLR` sized in batches never reaches its first decay.

## How to fix it

Size the period in the unit it is stepped in (`T_max=num_epochs`, minus any warm-up
epochs that do not step it), or call `scheduler.step()` on every batch.

## When preflight stays silent

* The period names only epochs, or nothing preflight reads as a batch count (`step_size`
  alone is StepLR's keyword, not a count of batches).
* `step()` runs inside the batch loop (the rule for the opposite mistake is PF440), is
  given an argument, or runs in a loop that holds no loop over a data loader.
* The scheduler is built where preflight cannot see (a parameter of the function).
"""
    bad_examples = examples("preflight.rules.code._pf474_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf474_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, target, period, step in bare_scheduler_steps(ctx, _batch_period):
            loop = _epoch_loop(ctx, step)
            if loop is None:
                continue
            yield ctx.finding(
                self, step,
                f"`{target}.step()` runs once per pass of the epoch loop (`for {ast.unparse(loop.target)} in "
                f"...`), after the batch loop, but `{call_last(call)}({period})` counts its period in "
                "batches: the schedule advances one step per epoch through a period of a whole epoch's "
                "batches, so the learning rate barely moves over the run (SimCLR issue 8). Size the period "
                "in epochs (the epochs that step it) or step the scheduler on every batch",
                evidence=[ctx.evidence(call, "the scheduler is built here, its period in batches")])

