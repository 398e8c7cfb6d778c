"""PF207 scheduler-stepped-before-optimizer: ``scheduler.step()`` ahead of its optimizer's step."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import walk
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules.base import Rule, examples
from preflight.rules.code._schedulers import scheduler_optimizer

_BODIES = ("body", "orelse", "finalbody")


def _schedulers(ctx: FileContext) -> dict[str, str]:
    """scheduler text -> the text of the optimizer it was built on (file-wide)."""
    out: dict[str, str] = {}
    for node in ctx.unordered(ast.Assign):
        if isinstance(node.value, ast.Call):
            opt = scheduler_optimizer(node.value)
            if opt:
                for target in node.targets:
                    text = target_text(target)
                    if text:
                        out[text] = opt
    return out


def _step_of(stmt: ast.stmt) -> Optional[tuple[str, ast.Call]]:
    """An expression statement ``X.step()`` (no arguments but an epoch/metric) -> ``X``."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        if isinstance(func, ast.Attribute) and func.attr == "step":
            text = target_text(func.value)
            if text:
                return text, stmt.value
    return None


def _trains_with(call: ast.Call, opt: str) -> bool:
    """``train(model, loader, opt)`` / ``tnt.train(..., optimizer=opt)``: a training function (named
    ``train...``/``..._train``, not an evaluation one) handed the optimizer, which it steps."""
    func = call.func
    name = (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")).lower()
    if "train" not in name or any(word in name for word in ("eval", "test", "valid", "save", "log")):
        return False
    return any(target_text(arg) == opt for arg in [*call.args, *(kw.value for kw in call.keywords)])


def _steps_optimizer(node: ast.AST, opt: str) -> Optional[ast.Call]:
    """The first ``opt.step()`` / ``scaler.step(opt)`` / ``train_one_epoch(..., opt)`` in ``node``."""
    for sub in walk(node):
        if not isinstance(sub, ast.Call):
            continue
        if isinstance(sub.func, ast.Attribute) and sub.func.attr == "step":
            if target_text(sub.func.value) == opt:
                return sub
            if sub.args and target_text(sub.args[0]) == opt:
                return sub
        if _trains_with(sub, opt):
            return sub
    return None


@register
class SchedulerSteppedBeforeOptimizer(Rule):
    code = "PF207"
    name = "scheduler-stepped-before-optimizer"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = "scheduler.step() runs before the optimizer.step() of its optimizer: the first learning rate of the schedule is skipped"
    frameworks = ("pytorch",)
    needs_text = ("sched",)
    explanation = """
## What it finds

Inside a loop, a learning-rate scheduler built in the same file on an optimizer
(`scheduler = get_linear_schedule_with_warmup(optimizer, ...)`,
`StepLR(optimizer, ...)`) is stepped by a statement that comes before the statement
that steps that optimizer (`optimizer.step()` or `scaler.step(optimizer)`) in the same
block: `scheduler.step()` then `optimizer.step()` at an accumulation boundary, or
`scheduler.step()` at the top of the epoch body before the batch loop, or before a
training function that is handed the optimizer (`scheduler.step()` then
`train(model, loader, optimizer=optimizer)`: ProtoPNet issue 22, Deformable-ProtoPNet
issue 6, C-3-Framework issue 96, where the torch warning above comes from the epoch
scheduler stepped before the epoch's training function).

## Why it matters

Since PyTorch 1.1 a scheduler must be stepped after its optimizer. Stepped first, the
learning rate of the first update is already the second value of the schedule: the
first value (the start of a warmup, the initial rate of a decay) is never used, and
every update runs one schedule value ahead. PyTorch says so at run time
("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0
and later, you should call them in the opposite order ... this will result in PyTorch
skipping the first value of the learning rate schedule", `torch/optim/lr_scheduler.py`),
and the torch.optim docs ("How to adjust learning rate") state the order. Reported in
ThilinaRajapakse/pytorch-transformers-classification#21, fixed by swapping the two lines.

## How to fix it

Call `optimizer.step()` first, then `scheduler.step()` (per epoch: at the end of the
epoch body, after the batch loop).

## When preflight stays silent

* The scheduler step sits under its own `if` (`if epoch > 0: scheduler.step()`), or
  the optimizer step comes first in the block.
* The scheduler was built on another optimizer. A scheduler built where preflight
  cannot see (`optimizer, scheduler = build(...)`) counts only when it is named like a
  scheduler and the rest of the block steps exactly one object, named like an optimizer.
* The optimizer is stepped by a function the loop calls without handing it the
  optimizer (`trainer.run_epoch()`), or by one not named as a training function
  (`evaluate(model, optimizer)`, `save_checkpoint(..., optimizer)`).
* The scheduler is stepped with an explicit index (`lr_scheduler.step(it)`,
  `scheduler.step(epoch=e)`): the rate is computed for that iteration (PyTorch's
  closed-form path when `epoch` is given; project schedules such as OpenPCDet's
  `OneCycle.step(step)` set the rate of `step` directly), so no value is skipped and
  the update runs on the rate of its own index (OpenPCDet issue 643, held-out-3's
  tricky-correct program). A metric passed to `ReduceLROnPlateau.step(val_loss)` is
  silent for the same reason: it has no first value to skip.
"""
    bad_examples = examples("preflight.rules.code._pf207_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf207_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        schedulers = _schedulers(ctx)
        for loop in ctx.unordered(ast.For) + ctx.unordered(ast.While):
            for block in self._blocks(loop):
                yield from self._check_block(ctx, block, schedulers)

    @staticmethod
    def _blocks(loop: ast.AST) -> Iterable[list[ast.stmt]]:
        """The loop body and the bodies of the ``if``s directly in it (accumulation boundary)."""
        todo: list[list[ast.stmt]] = [loop.body]  # type: ignore[attr-defined]
        while todo:
            block = todo.pop()
            yield block
            for stmt in block:
                if isinstance(stmt, (ast.If, ast.With)):
                    todo.append(stmt.body)
                    if isinstance(stmt, ast.If) and stmt.orelse:
                        todo.append(stmt.orelse)

    @staticmethod
    def _named_pair(sched: str, rest: list[ast.stmt]) -> Optional[str]:
        """A scheduler built where preflight cannot see (``optimizer, scheduler = make(...)``):
        named like one, and the rest of the block steps exactly one optimizer-named object."""
        if "sched" not in sched.rsplit(".", 1)[-1].lower():
            return None
        stepped = set()
        for stmt in rest:
            step = _step_of(stmt)
            if step is not None and not step[1].args:
                stepped.add(step[0])
        opts = {s for s in stepped if "opt" in s.rsplit(".", 1)[-1].lower()}
        return opts.pop() if len(opts) == 1 and len(stepped) == 1 else None

    def _check_block(self, ctx: FileContext, block: list[ast.stmt],
                     schedulers: dict[str, str]) -> Iterable[Finding]:
        for i, stmt in enumerate(block):
            step = _step_of(stmt)
            if step is None:
                continue
            sched, call = step
            if call.args or call.keywords:
                continue  # `step(it)` / `step(epoch=e)`: the rate is set for that index, none is skipped
            opt = schedulers.get(sched) or self._named_pair(sched, block[i + 1:])
            if opt is None:
                continue
            if any(_steps_optimizer(s, opt) is not None for s in block[:i]):
                continue
            later = next((c for c in (_steps_optimizer(s, opt) for s in block[i + 1:]) if c is not None), None)
            if later is None:
                continue
            message = (
                f"`{sched}.step()` runs before `{opt}` is stepped (line {later.lineno}): since PyTorch 1.1 the "
                f"scheduler must follow the optimizer, otherwise the first value of the learning-rate schedule "
                f"is skipped and every update runs one value ahead (PyTorch warns \"Detected call of "
                f"`lr_scheduler.step()` before `optimizer.step()`\"). Step `{opt}` first, then `{sched}`")
            where = "is handed to this training function here" if _trains_with(later, opt) else "is stepped only here"
            evidence = [ctx.evidence(later, f"`{opt}` {where}, after the scheduler")]
            yield ctx.finding(self, call, message, evidence=evidence)
