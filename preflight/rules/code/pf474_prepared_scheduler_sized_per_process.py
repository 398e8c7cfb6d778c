"""PF474 prepared-scheduler-sized-per-process: a schedule sized by a prepared loader's length is prepared."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules.base import Rule, examples


def _prepare_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "prepare"
            and bool(node.args))


def _names(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, (ast.Tuple, ast.List)):
        return {n for e in node.elts for n in _names(e)}
    return set()


def _len_of(expr: ast.AST, loaders: set[str]) -> Optional[str]:
    """The prepared loader whose ``len(...)`` the expression counts, if any."""
    for sub in ast.walk(expr):
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "len"
                and len(sub.args) == 1 and isinstance(sub.args[0], ast.Name) and sub.args[0].id in loaders):
            return sub.args[0].id
    return None


def _scales_by_processes(expr: ast.AST) -> bool:
    text = ast.unparse(expr)
    return any(w in text for w in ("num_processes", "world_size", "num_gpus", "n_gpu", "process_count"))


def _is_schedule(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    low = name.lower()
    return "schedul" in low or low.endswith("lr") or "lambdalr" in low


def _single_step_accelerator(fn: ast.AST) -> bool:
    """``Accelerator(split_batches=True)`` or ``step_scheduler_with_optimizer=False``: one step per call."""
    for sub in ast.walk(fn):
        if isinstance(sub, ast.Call) and ast.unparse(sub.func).endswith("Accelerator"):
            split = kwarg(sub, "split_batches")
            with_opt = kwarg(sub, "step_scheduler_with_optimizer")
            if (isinstance(split, ast.Constant) and split.value is True) or (
                    isinstance(with_opt, ast.Constant) and with_opt.value is False):
                return True
            if split is not None and not isinstance(split, ast.Constant):
                return True  # decided at run time: do not guess
    return False


@register
class PreparedSchedulerSizedPerProcess(Rule):
    code = "PF474"
    needs_text = ("prepare(",)
    name = "prepared-scheduler-sized-per-process"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = ("An LR schedule sized by `len()` of a loader Accelerate already prepared (per-process batches) "
               "is then passed to `accelerator.prepare`, which steps it once per process: it ends early")
    explanation = """
## What it finds

In one function: a loader returned by `accelerator.prepare(...)`, then an LR scheduler
built with a step count computed from `len(<that loader>)` (directly or through a
variable) with no `num_processes` factor, and then that scheduler passed to a later
`accelerator.prepare(...)`.

## Why it matters

After `prepare`, a loader yields this process's share of the batches: `len(loader)` is
the per-process count. A scheduler passed to `prepare` becomes an `AcceleratedScheduler`,
which (without `split_batches=True`) calls the real scheduler's `step()` once per process
on every optimizer step, because it expects a schedule sized in batches of the whole
dataset. Sized per process and stepped per process, the schedule runs out after
1/`num_processes` of training: a OneCycleLR on 4 GPUs finishes its cycle after a quarter
of the run and then raises "Tried to step N times. The specified number of total steps
is M"; a linear decay reaches 0 and the rest of the run trains at lr 0 (accelerate issue
2882: "the lr_scheduler.step() will run num_processes times every step").

## How to fix it

Build the scheduler before `prepare` from the unprepared loader's length (whole dataset),
multiply the count by `accelerator.num_processes`, or do not pass the scheduler to
`prepare` and step it once per optimizer step yourself.

## When preflight stays silent

* The count is multiplied by `accelerator.num_processes` (or a world size).
* The scheduler is built before the loader is prepared, or never passed to `prepare`.
* `Accelerator(split_batches=True)` or `step_scheduler_with_optimizer=False`.
"""
    bad_examples = examples("preflight.rules.code._pf474_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf474_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        seen: set[int] = set()
        for node in ctx.nodes(ast.Assign):
            if not _prepare_call(node.value) or len(node.targets) != 1:
                continue
            fn = ctx.enclosing_function(node) or ctx.tree
            if id(fn) in seen:
                continue
            seen.add(id(fn))
            yield from self._in_function(ctx, fn)

    def _in_function(self, ctx: FileContext, fn: ast.AST) -> Iterable[Finding]:
        if _single_step_accelerator(fn):
            return
        assigns = sorted((n for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1),
                         key=lambda n: (n.lineno, n.col_offset))
        prepared: dict[str, int] = {}  # loader name -> line it became a prepared loader
        sized: dict[str, tuple[str, int]] = {}  # variable -> (prepared loader it counts, line)
        for node in assigns:
            target, value = node.targets[0], node.value
            if _prepare_call(value):
                assert isinstance(value, ast.Call)
                for name in _names(target):
                    if name and "loader" in name.lower():
                        prepared.setdefault(name, node.lineno)
                continue
            loaders = {n for n, line in prepared.items() if line < node.lineno}
            if not loaders or _scales_by_processes(value):
                continue
            counted = _len_of(value, loaders) or next(
                (sized[n.id][0] for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in sized
                 and sized[n.id][1] < node.lineno), None)
            if counted is None:
                continue
            if isinstance(value, ast.Call) and _is_schedule(value) and isinstance(target, ast.Name):
                later = self._prepared_later(fn, target.id, node.lineno)
                if later is not None:
                    yield ctx.finding(
                        self, value,
                        f"`{target.id}` is sized from `len({counted})`, and `{counted}` is already prepared (its "
                        "length is this process's share of the batches); passing the scheduler to "
                        "`accelerator.prepare` then steps it once per process on every optimizer step, so the "
                        "schedule ends after 1/num_processes of training. Multiply the count by "
                        "`accelerator.num_processes` (or size it before preparing the loader)",
                        evidence=[ctx.evidence(later, f"`{target.id}` is prepared here")])
            elif isinstance(target, ast.Name):
                sized[target.id] = (counted, node.lineno)

    @staticmethod
    def _prepared_later(fn: ast.AST, name: str, line: int) -> Optional[ast.Call]:
        for sub in ast.walk(fn):
            if _prepare_call(sub) and getattr(sub, "lineno", 0) > line:
                assert isinstance(sub, ast.Call)
                if any(isinstance(a, ast.Name) and a.id == name for a in sub.args):
                    return sub
        return None
