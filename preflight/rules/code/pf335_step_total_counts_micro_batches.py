"""PF335 step-total-counts-micro-batches: a schedule total computed as ``len(loader) * epochs`` while the
optimizer steps once per accumulation window (``if i % grad_acc == 0: optimizer.step()``)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.plan._schedule_support import schedule_totals

_ACC_WORDS = ("acc", "accum")


def _batches_times_epochs(value: ast.expr) -> bool:
    """``len(loader) * epochs`` (either order), with no accumulation term anywhere in it."""
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult)):
        return False
    sides = (value.left, value.right)
    has_len = any(isinstance(s, ast.Call) and isinstance(s.func, ast.Name) and s.func.id == "len" for s in sides)
    has_epochs = any("epoch" in ast.unparse(s).lower() for s in sides)
    text = ast.unparse(value).lower()
    return has_len and has_epochs and not any(w in text for w in _ACC_WORDS)


def _windowed_step(ctx: FileContext) -> Optional[tuple[ast.Call, str]]:
    """An ``optimizer.step()`` under ``if <i> % <accumulation> == 0``, with the window's text."""
    for node in ctx.nodes(ast.If):
        mods = [n for n in ast.walk(node.test) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod)]
        window = next((ast.unparse(m.right) for m in mods if any(w in ast.unparse(m.right).lower()
                                                                   for w in _ACC_WORDS)), None)
        if window is None:
            continue
        for sub in node.body:
            for call in ast.walk(sub):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "step" \
                        and "optim" in ast.unparse(call.func.value).lower():
                    return call, window
    return None


def _stepped_in_window(ctx: FileContext, schedule: ast.Call) -> bool:
    """The schedule built by ``schedule`` (``name = builder(...)``) is stepped inside an accumulation window
    (``if <i> % <accumulation> == 0:``), not on every batch."""
    assign = ctx.parent(schedule)
    if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1):
        return False
    name = ast.unparse(assign.targets[0])
    for node in ctx.nodes(ast.If):
        if not any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod)
                   and any(w in ast.unparse(n.right).lower() for w in _ACC_WORDS) for n in ast.walk(node.test)):
            continue
        for sub in node.body:
            for call in ast.walk(sub):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "step" \
                        and ast.unparse(call.func.value) == name:
                    return True
    return False


@register
class StepTotalCountsMicroBatches(Rule):
    code = "PF335"
    needs_text = ("len",)
    name = "step-total-counts-micro-batches"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    summary = ("A schedule's total is `len(loader) * epochs` (micro-batches) while the optimizer steps once per "
               "accumulation window: the schedule is stretched over N times the optimizer steps")
    explanation = """
## What it finds

A step-count schedule (`get_cosine_schedule_with_warmup`, `get_scheduler`, `OneCycleLR`,
`CosineAnnealingLR`, ...) whose total is a value assigned as `len(loader) * epochs` with no
accumulation term in it, in a file whose `optimizer.step()` runs only under a modulo test on an
accumulation count (`if batch_id % args.optim.grad_acc == 0:`).

## Why it matters

`len(loader)` counts micro-batches, but the optimizer (and the scheduler stepped beside it)
advances once per `grad_acc` of them. The schedule is sized for `grad_acc` times more steps than
the run takes: a cosine decays only to its middle, a warmup ends late; and a loop that runs until
the step counter reaches that total trains `grad_acc` times the configured epochs (nanoT5 PR 8:
"total_steps = len(train_dataloader) * epochs" with `grad_acc`, fixed as `// grad_acc`).

## How to fix it

Count optimizer steps: `total_steps = len(loader) * epochs // grad_acc` (or
`math.ceil(len(loader) / grad_acc) * epochs`).

## When preflight stays silent

* The total mentions the accumulation (`// args.gradient_accumulation_steps`), or is not a
  `len(...) * epochs` product.
* The total written inline in the schedule call (`num_training_steps=len(train_dataloader) *
  num_epochs`, accelerate 0.5.1's `nlp_example.py`) is reported when the schedule is stepped inside
  the window; a schedule stepped on every batch, outside it, is sized right in micro-batches.
* The optimizer steps on every batch (no accumulation window), or the window is Accelerate's
  `accumulate()` (another count; see PF634).
"""
    bad_examples = examples("preflight.rules.code._pf335_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf335_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        windowed = _windowed_step(ctx)
        if windowed is None:
            return
        step, window = windowed
        totals: dict[str, ast.Assign] = {}
        for assign in ctx.nodes(ast.Assign):
            if len(assign.targets) == 1 and _batches_times_epochs(assign.value):
                target = assign.targets[0]
                if isinstance(target, (ast.Name, ast.Attribute)):
                    totals.setdefault(ast.unparse(target), assign)
        for call, total in schedule_totals(ctx):
            found = totals.get(ast.unparse(total))
            if found is None:
                if _batches_times_epochs(total) and _stepped_in_window(ctx, call):
                    yield self._inline(ctx, call, total, step, window)
                continue
            yield ctx.finding(
                self, found,
                f"`{ast.unparse(found.targets[0])} = {ast.unparse(found.value)}` counts micro-batches, but the "
                f"optimizer steps once per `{window}` of them (line {step.lineno}) and the schedule built from it "
                f"(line {call.lineno}) is stepped beside it: the schedule is sized for `{window}` times the optimizer "
                "steps the run takes (the decay stops early in its curve, or a loop bounded by this total trains "
                f"that many times the epochs). Divide by the accumulation: `... // {window}`",
                evidence=[ctx.evidence(step, "the optimizer steps once per window"),
                          ctx.evidence(call, "the schedule sized with it")])

    def _inline(self, ctx: FileContext, call: ast.Call, total: ast.expr, step: ast.Call, window: str) -> Finding:
        return ctx.finding(
            self, total,
            f"The schedule's total `{ast.unparse(total)}` counts micro-batches, but the optimizer steps once per "
            f"`{window}` of them (line {step.lineno}) and this schedule is stepped in the same window: it is sized "
            f"for `{window}` times the optimizer steps the run takes, so the decay stops early in its curve (a "
            f"linear decay ends near 1 - 1/{window} of its peak). Divide by the accumulation: `... // {window}`",
            evidence=[ctx.evidence(step, "the optimizer steps once per window"),
                      ctx.evidence(call, "the schedule sized with it")])
