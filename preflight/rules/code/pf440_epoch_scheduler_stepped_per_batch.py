"""PF440 epoch-scheduler-stepped-per-batch: a schedule sized in epochs whose ``step()`` runs in the batch loop."""

from __future__ import annotations

import ast
import re
from itertools import chain
from typing import Callable, Collection, Iterable, Iterator, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf440_calls import CalledStep, called_step, handed_steps
from preflight.rules.code._pf440_passed import literal_epoch_period, passed_scheduler_steps
from preflight.rules.code._scheduler_steps import (
    SCHEDULER_PERIOD,
    assigned_once,
    call_arg,
    is_batch_loop,
    loop_source,
)

# a period that names any of these is (also) counted in steps or batches
_STEP_WORDS = ("len(", "step", "iter", "batch", "loader")
# ``step_epochs``/``step-epochs``/``stepepochs``: the decay step counted in epochs (not ``steps_per_epoch``)
_DECAY_STEP_IN_EPOCHS = re.compile(r"step[_-]?epochs?")
# an ``if`` naming any of these inside the batch loop gates the step to the epoch's end
_EPOCH_GATES = ("len(", "epoch", "last", "end")


def _epoch_period(call: ast.Call, scope: ast.AST) -> Optional[str]:
    """``T_max=num_epochs`` as shown, when the scheduler's period is written in epochs (and not in steps)."""
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
    # det117: ``lr_step_epochs`` (MXNet's ``--lr-step-epochs``, vortex PR 58) names the decay step in epochs:
    # its "step" is the decay's, not a unit of the period
    low = _DECAY_STEP_IN_EPOCHS.sub("epochs", seen.lower())
    if "epoch" not in low or any(w in low for w in _STEP_WORDS):
        return None
    return f"{keyword}={text}"


def _period(call: ast.Call, scope: ast.AST) -> Optional[str]:
    """The period written in epochs (by its name or, for StepLR/MultiStepLR, a small literal)."""
    if call_last(call) not in SCHEDULER_PERIOD:
        return None
    return _epoch_period(call, scope) or literal_epoch_period(call, scope)


def bare_scheduler_steps(ctx: FileContext, period_of: Callable[[ast.Call, ast.AST], Optional[str]],
                         names: Collection[str] = SCHEDULER_PERIOD, module_level: bool = False,
                         ) -> Iterator[tuple[ast.Call, str, str, ast.Call]]:
    """(schedule constructor, its target, the period ``period_of`` reads, a bare ``target.step()``) for
    every schedule of ``names`` (default ``SCHEDULER_PERIOD``) bound to one name (``self.x``: looked up in the class) whose period
    ``period_of`` reads (PF440: counted in epochs, PF474: counted in batches). With ``module_level`` a schedule
    built at module level is looked up in the module (a plain script)."""
    for assign in ctx.nodes(ast.Assign):
        call = assign.value
        if not (isinstance(call, ast.Call) and call_last(call) in names) or len(assign.targets) != 1:
            continue
        target = target_text(assign.targets[0])
        fn = ctx.enclosing_function(assign) if target is not None else None
        if fn is None and module_level and target is not None and not target.startswith("self."):
            fn = ctx.tree
        if target is None or fn is None:
            continue
        scope: Optional[ast.AST] = ctx.enclosing(assign, ast.ClassDef) if target.startswith("self.") else fn
        period = period_of(call, fn) if scope is not None else None
        if scope is None or period is None:
            continue
        for step in ast.walk(scope):
            if (isinstance(step, ast.Call) and isinstance(step.func, ast.Attribute)
                    and step.func.attr == "step" and not step.args and not step.keywords
                    and ast.unparse(step.func.value) == target):
                yield call, target, period, step


@register
class EpochSchedulerSteppedPerBatch(Rule):
    code = "PF440"
    needs_text = ("lr_scheduler",)
    name = "epoch-scheduler-stepped-per-batch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate", "fabric")
    summary = "A scheduler whose period is written in epochs is stepped inside the batch loop"
    explanation = """
## What it finds

A torch scheduler built in the same function (or, for `self.scheduler`, the same class)
with its period written in epochs (`CosineAnnealingLR(optimizer, num_epochs)`,
`StepLR(step_size=args.lr_decay_epochs)`, `MultiStepLR(milestones=cfg.epochs_milestones)`,
`CosineAnnealingWarmRestarts(T_0=epochs)`) whose `scheduler.step()` runs inside the loop
over the data loader. A `StepLR`/`MultiStepLR` period written as a small literal
(`step_size=7`, at most 100; milestones at most 300) that decays by at least half (`gamma`
<= 0.5, default 0.1) counts epochs by its size. The scheduler may also be built at module
level, or handed by name to a function of the file that steps its parameter
(`train_model(model, criterion, optimizer, exp_lr_scheduler)`: the torchvision
transfer-learning tutorial's shape, pytorch/tutorials PR 640). The `step()` may sit in a
method or function that the batch loop calls (`train_epoch` loops over the loader and calls
`self.train_step(...)`, which steps `self.scheduler`; up to three calls deep within one class or
module), or in a job class the schedule is handed to and stored on `self`
(`trainer.prepare(model, criterion, optimizer, scheduler)`, the class in this file or in a project
module the file imports: Auto-PyTorch PR 210); the finding is then at the handing call, with the
loop and the step in its evidence.

## Why it matters

A scheduler counts `step()` calls, not epochs. Stepped on every batch, a cosine
schedule with `T_max=num_epochs` runs through its whole period every `num_epochs`
batches: the learning rate swings between its maximum and zero many times an epoch
instead of annealing over the run (ivadomed PR 55, "Scheduler was incorrectly stepped
in the batch loop instead of in the epoch loop"); a `StepLR` meant to decay every 30
epochs decays every 30 batches and reaches nothing in the first epoch.

## How to fix it

Call `scheduler.step()` once per epoch, after the batch loop, or write the period in
steps (`T_max=num_epochs * len(train_loader)`).

## When preflight stays silent

* The period also names steps, iterations, batches or a length (`epochs * len(loader)`).
* `step()` is given an argument (`CosineAnnealingWarmRestarts.step(epoch + i / iters)`,
  the documented per-batch use), or is gated inside the batch loop by a test on the
  epoch's end (`if i == len(loader) - 1`).
* The method that steps is called from the epoch loop, after the batch loop, or under a test of
  the epoch's end; a method defined but never called in a batch loop of its class.
* The scheduler is built where preflight cannot see (a parameter of a function that no call
  of the file hands a scheduler built there).
* A literal period that is large (`StepLR(step_size=1000)`) or decays gently
  (`StepLR(step_size=1, gamma=0.9999)`: the per-batch exponential decay some scripts want).
"""
    bad_examples = examples("preflight.rules.code._pf440_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf440_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        seen: set[int] = set()
        for call, target, period, step in chain(bare_scheduler_steps(ctx, _period),
                                                passed_scheduler_steps(ctx, _period)):
            loop = self._batch_loop(ctx, step)
            if id(step) in seen:
                continue
            if loop is None:
                reach = called_step(ctx, step)
                if reach is not None:
                    seen.add(id(step))
                    yield self._called(ctx, call, target, period, CalledStep(step, reach, None, step))
                continue
            seen.add(id(step))
            yield ctx.finding(
                self, step,
                f"`{target}.step()` runs inside the batch loop (`for ... in {ast.unparse(loop_source(loop))}`), "
                f"but `{call_last(call)}({period})` counts its period in epochs: the schedule advances once "
                "per batch and runs through its period many times an epoch (the learning rate cycles or "
                "decays to nothing early). Step it once per epoch, after the batch loop, or write the "
                "period in steps (epochs * len(loader))",
                evidence=[ctx.evidence(call, "the scheduler is built here, its period in epochs")])
        for call, target, period, found in handed_steps(ctx, _period):
            key = id(found.step) if found.path is None else id(found.anchor)
            if key not in seen:
                seen.add(key)
                yield self._called(ctx, call, target, period, found)

    def _called(self, ctx: FileContext, call: ast.Call, target: str, period: str, found: CalledStep) -> Finding:
        """The step runs in a function a batch loop calls (``train_step`` called per batch by ``train_epoch``)."""
        reach = found.reach
        chain_text = " -> ".join(f"`{ast.unparse(site.func)}()`" for site in reach.sites) or "its own loop"
        where = f"{found.path}:" if found.path else "line "

        def other(node: ast.AST, message: str) -> Evidence:
            if found.path is None:
                return ctx.evidence(node, message)
            return Evidence(line=getattr(node, "lineno", 1), column=getattr(node, "col_offset", 0) + 1,
                            path=found.path, message=message)

        evidence = [ctx.evidence(call, "the scheduler is built here, its period in epochs"),
                    other(reach.loop, f"`{reach.caller.name}` loops over the batches "
                                      f"(`for ... in {ast.unparse(loop_source(reach.loop))}`)")]
        evidence += [other(site, f"`{ast.unparse(site.func)}()` is called here") for site in reach.sites]
        if found.path is not None:
            evidence.append(other(found.step, f"`{target}.step()` is called here"))
        return ctx.finding(
            self, found.anchor,
            f"`{target}.step()` ({where}{found.step.lineno}) runs once per batch: the batch loop of "
            f"`{reach.caller.name}` calls it through {chain_text}, but `{call_last(call)}({period})` counts its "
            "period in epochs: the schedule advances once per batch and runs through its period many times an "
            "epoch (the learning rate cycles or decays to nothing early). Step it once per epoch, after the "
            "batch loop, or write the period in steps (epochs * len(loader))",
            evidence=evidence)

    @staticmethod
    def _batch_loop(ctx: FileContext, step: ast.AST) -> Optional[Union[ast.For, ast.AsyncFor]]:
        """The innermost loop around ``step`` when it iterates a data loader and no epoch-end test gates it."""
        for anc in ctx.ancestors(step):
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return None
            if isinstance(anc, ast.If):
                test = ast.unparse(anc.test).lower()
                if any(w in test for w in _EPOCH_GATES):
                    return None
            if isinstance(anc, ast.While):
                return None
            if isinstance(anc, (ast.For, ast.AsyncFor)):
                return anc if is_batch_loop(anc) or _training_loop_in_epochs(ctx, anc) else None
        return None


def _training_loop_in_epochs(ctx: FileContext, loop: Union[ast.For, ast.AsyncFor]) -> bool:
    """det98: a loop over a name the batch words miss (``for x, y in train_iter``) that calls ``.backward()``
    and sits in a loop over the epochs (``for epoch in range(epochs)``) of the same function."""
    source = loop_source(loop)
    if isinstance(source, (ast.List, ast.Tuple, ast.Set, ast.Dict)) or (
            isinstance(source, ast.Call) and call_last(source) in ("range", "enumerate", "zip")):
        return False
    # the loop itself runs backward (not a loop over phases around the batch loop)
    if not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"
               and ctx.enclosing_loop(n) is loop for n in ast.walk(loop)):
        return False
    for anc in ctx.ancestors(loop):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return False
        if isinstance(anc, (ast.For, ast.AsyncFor)) and "epoch" in ast.unparse(anc.target).lower():
            return True
    return False
