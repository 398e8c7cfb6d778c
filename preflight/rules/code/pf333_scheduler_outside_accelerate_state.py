"""PF333 scheduler-outside-accelerate-state: a script that resumes with ``accelerator.load_state`` steps
an LR scheduler it neither prepared nor registered for checkpointing: the schedule restarts on resume."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules.base import Rule, examples

_SUFFIXES = ("LR", "Scheduler", "LRScheduler", "ReduceLROnPlateau")
# calls that take the scheduler's state into a checkpoint (or hand it to code that may)
_KEEPERS = ("prepare", "register_for_checkpointing")


def _is_scheduler(call: ast.expr) -> bool:
    """``LambdaLR(opt, ...)``, ``torch.optim.lr_scheduler.StepLR(...)``, ``get_scheduler(...)``,
    ``get_cosine_schedule_with_warmup(...)``."""
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return bool(name) and (name.endswith(_SUFFIXES) or (name.startswith("get_") and "schedule" in name)) \
        and name[0].isalpha()


def _load_state(ctx: FileContext) -> Optional[ast.Call]:
    """The first ``<accelerator>.load_state(...)`` of the file."""
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Attribute) and call.func.attr == "load_state":
            owner = ast.unparse(call.func.value).lower()
            if "accelerat" in owner:
                return call
    return None


def _kept(ctx: FileContext, text: str) -> bool:
    """The scheduler is prepared, registered, handed to another call, or its state is read or written."""
    for call in ctx.nodes(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and ast.unparse(func.value) == text \
                and func.attr in ("load_state_dict", "state_dict"):
            return True
        if isinstance(func, ast.Attribute) and func.attr in ("step", "get_last_lr", "get_lr"):
            continue
        args = list(call.args) + [kw.value for kw in call.keywords]
        if any(ast.unparse(a) == text or (isinstance(a, (ast.List, ast.Tuple)) and any(
                ast.unparse(e) == text for e in a.elts)) for a in args):
            return True
    return False


@register
class SchedulerOutsideAccelerateState(Rule):
    code = "PF333"
    needs_text = ("load_state",)
    name = "scheduler-outside-accelerate-state"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("A script resumes with `accelerator.load_state` but steps an LR scheduler it neither prepared nor "
               "registered for checkpointing: the schedule restarts from step 0 on resume")
    explanation = """
## What it finds

A script that calls `accelerator.load_state(...)` and steps an LR scheduler (`scheduler.step()`)
bound to a name in the file (`LambdaLR(...)`, `get_cosine_schedule_with_warmup(...)`,
`get_scheduler(...)`, any torch `*LR` class), when that scheduler is never passed to
`accelerator.prepare(...)` or `accelerator.register_for_checkpointing(...)`, never handed to any
other call, and its `state_dict()` is neither saved nor loaded.

## Why it matters

`save_state`/`load_state` checkpoint what the Accelerator knows about: the prepared models,
optimizers, schedulers and dataloaders, and the objects registered with
`register_for_checkpointing`. A scheduler built beside them and kept out of both is not in the
checkpoint, so the resumed run restores the weights and the optimizer's moments but builds the
scheduler afresh: the warmup starts again from ~0 and a decay restarts from its top
(DiM-DiffusionMamba issue 5: resumed at step 125000, "the learning rate started again from the
initial state"; the maintainer added the scheduler to the resumed state).

## How to fix it

`accelerator.register_for_checkpointing(lr_scheduler)` (counted in the caller's steps), or pass it
to `accelerator.prepare(...)` (then it steps once per process per call unless
`split_batches=True`: size it accordingly), or save and load its `state_dict()` yourself.

## When preflight stays silent

* The scheduler is prepared, registered, handed to any other call (a helper may save it), or its
  `state_dict()`/`load_state_dict()` is called anywhere in the file.
* A scheduler rebuilt at the resumed position (`last_epoch=` given).
* The file never calls `load_state` (the run cannot resume through Accelerate).
"""
    bad_examples = examples("preflight.rules.code._pf333_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf333_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        load = _load_state(ctx)
        if load is None:
            return
        built: dict[str, ast.Assign] = {}
        for assign in ctx.nodes(ast.Assign):
            if len(assign.targets) == 1 and _is_scheduler(assign.value):
                text = target_text(assign.targets[0])
                call = assign.value
                if text and isinstance(call, ast.Call) and not any(kw.arg == "last_epoch" for kw in call.keywords):
                    built.setdefault(text, assign)
        for text, assign in built.items():
            steps = [c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == "step"
                     and ast.unparse(c.func.value) == text]
            if not steps or _kept(ctx, text):
                continue
            yield ctx.finding(
                self, assign,
                f"`{text}` is stepped (line {steps[0].lineno}) but never passed to `accelerator.prepare` or "
                f"`accelerator.register_for_checkpointing`, and its state is not saved otherwise: "
                f"`accelerator.load_state` (line {load.lineno}) restores the weights and the optimizer but not this "
                "schedule, so a resumed run restarts it from step 0 (the warmup again, the decay from its top). "
                f"Register it (`accelerator.register_for_checkpointing({text})`) or prepare it",
                evidence=[ctx.evidence(load, "the run resumes here"), ctx.evidence(steps[0], "stepped here")])
