"""PF317 split-batches-schedule-scaled-by-processes: a schedule multiplied by ``num_processes`` and
prepared by an ``Accelerator(split_batches=True)``, which steps it once per optimizer step."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerator_calls, accelerators, has_unpacking, kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples
from preflight.rules.plan._schedule_support import BUILDERS

# the step counts of a schedule builder besides its total
_WARMUP = ("num_warmup_steps",)


def _split(ctx: FileContext, ctor: ast.Call) -> Optional[bool]:
    """True/False when the constructor states ``split_batches`` (directly or through an inline or
    once-bound ``DataLoaderConfiguration(split_batches=...)``); None when it cannot be told."""
    if has_unpacking(ctor):
        return None
    value = kwarg(ctor, "split_batches")
    config = kwarg(ctor, "dataloader_config")
    if value is None and config is not None:
        if isinstance(config, ast.Name):
            bound = [a.value for a in ctx.nodes(ast.Assign) if len(a.targets) == 1
                     and isinstance(a.targets[0], ast.Name) and a.targets[0].id == config.id]
            config = bound[0] if len(bound) == 1 else None
        if not (isinstance(config, ast.Call) and call_last(config) == "DataLoaderConfiguration"):
            return None
        value = kwarg(config, "split_batches")
    if value is None:
        return False
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, bool) else None


def _scaled(expr: ast.expr) -> Optional[ast.expr]:
    """The ``... * <x>.num_processes`` product inside a step count, if any."""
    for node in ast.walk(expr):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for side in (node.left, node.right):
                name = side.attr if isinstance(side, ast.Attribute) else side.id if isinstance(side, ast.Name) else ""
                if name == "num_processes":
                    return node
    return None


def _bound_name(ctx: FileContext, call: ast.Call) -> Optional[str]:
    parent = ctx.parent(call)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        return ast.unparse(parent.targets[0])
    return None


@register
class SplitBatchesScheduleScaledByProcesses(Rule):
    code = "PF317"
    needs_text = ("split_batches",)
    name = "split-batches-schedule-scaled-by-processes"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("A schedule's steps are multiplied by `num_processes` under `Accelerator(split_batches=True)`, "
               "whose prepared scheduler steps once per optimizer step (the schedule is stretched N-fold)")
    explanation = """
## What it finds

A step-count schedule (`get_scheduler`, `get_cosine_schedule_with_warmup`, ...,
`OneCycleLR`, `CosineAnnealingLR`) whose total or warmup is multiplied by
`accelerator.num_processes`, passed to `accelerator.prepare`, in a file whose every
`Accelerator(...)` says `split_batches=True` (directly or through
`DataLoaderConfiguration(split_batches=True)`).

## Why it matters

Multiplying by `num_processes` is the fix for the default mode, where a prepared
scheduler calls the wrapped scheduler's `step()` once per process at each optimizer
step. With `split_batches=True` it does not: `AcceleratedScheduler.step` steps the
wrapped scheduler once (accelerate `scheduler.py`), and the prepared loader keeps its
length (each batch is split across the processes). The multiplied schedule is then
N times too long on N processes: warmup lasts N times longer and the learning rate
never reaches the end of its decay (accelerate issue 2708, "Total Steps when
split_batches = True?").

## How to fix it

Size the schedule in optimizer steps, without the `num_processes` factor, when
batches are split.

## When preflight stays silent

* Any `Accelerator(...)` of the file has no `split_batches=True`, or its value cannot be
  read (`**kwargs`, a variable, a plugin built elsewhere): the default mode needs the factor.
* The scheduler is not passed to `accelerator.prepare` (it is stepped as written).
* The schedule's counts do not multiply by `num_processes`.
"""
    bad_examples = examples("preflight.rules.code._pf317_examples", "PF317_BAD")
    good_examples = examples("preflight.rules.code._pf317_examples", "PF317_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        ctors = accelerators(ctx)
        if not ctors or not all(_split(ctx, c) is True for c in ctors):
            return
        prepared = {ast.unparse(a) for call in accelerator_calls(ctx, "prepare") for a in call.args}
        for call in ctx.nodes(ast.Call):
            found = BUILDERS.get(call_last(call))
            if found is None:
                continue
            name = _bound_name(ctx, call)
            if name is None or name not in prepared:
                continue
            key, pos = found
            total = kwarg(call, key)
            if total is None and len(call.args) > pos:
                total = call.args[pos]
            counts = [e for e in (total, *(kwarg(call, k) for k in _WARMUP)) if e is not None]
            product = next((p for p in (_scaled(e) for e in counts) if p is not None), None)
            if product is None:
                continue
            yield ctx.finding(
                self, product,
                f"`{name}` counts `{ast.unparse(product)}` steps, multiplied by the process count, but the "
                "Accelerator splits batches (`split_batches=True`): the prepared scheduler then steps once per "
                "optimizer step, not once per process, and the prepared loader keeps its length, so on N processes "
                "the schedule is N times too long (warmup N times longer, the decay never finishes). Size it in "
                "optimizer steps without the `num_processes` factor")
