"""PF419 step-scheduler-per-epoch: a per-step LR schedule handed to Lightning without ``"interval": "step"``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import (
    STEP_SCHEDULERS,
    call_last,
    const_str,
    manual_optimization,
    may_optimize_manually,
)
from preflight.rules.base import Rule, examples


def _dict_keys(d: ast.Dict) -> dict[str, ast.expr]:
    return {k.value: v for k, v in zip(d.keys, d.values) if isinstance(k, ast.Constant) and isinstance(k.value, str)}


@register
class StepSchedulerPerEpoch(Rule):
    code = "PF419"
    needs_text = ('configure_optimizers',)
    name = "step-scheduler-per-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "A per-step LR schedule is returned from `configure_optimizers` without `\"interval\": \"step\"`"
    explanation = """
## What it finds

`configure_optimizers` builds a schedule meant to advance every optimizer step
(`OneCycleLR`, `CyclicLR`, transformers' `get_*_schedule_with_warmup`) and
returns it without a scheduler dict carrying `"interval": "step"`, or with
`"interval"` put beside `"optimizer"` at the top level where Lightning ignores it.

## Why it matters

Lightning steps a scheduler once per epoch unless its dict says
`"interval": "step"`. A OneCycle or warmup schedule sized in steps
(`total_steps=self.trainer.estimated_stepping_batches`) then advances only a few
times in the whole run: the learning rate stays near its initial value and the
warmup never ends (Lightning issues 3869, 6948; the docs example fixed in PR 19774).

## How to fix it

`return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}`.

## When preflight stays silent

* A dict with `"scheduler"` and `"interval": "step"` is built in the method.
* The module steps its schedulers itself (`self.lr_schedulers()`, manual optimization).
"""
    bad_examples = examples("preflight.rules.code._pf414_examples", "PF419_BAD")
    good_examples = examples("preflight.rules.code._pf414_examples", "PF419_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for cls in ctx.nodes(ast.ClassDef):
            # the cheap test first: most classes (large models) have no configure_optimizers
            methods = [fn for fn in cls.body if isinstance(fn, ast.FunctionDef) and fn.name == "configure_optimizers"]
            if not methods:
                continue
            if may_optimize_manually(ctx) and manual_optimization(cls) is not None:
                continue
            if any(isinstance(n, ast.Attribute) and n.attr == "lr_schedulers" for n in ast.walk(cls)):
                continue
            for fn in methods:
                yield from self._check(ctx, fn)

    def _check(self, ctx: FileContext, fn: ast.FunctionDef) -> Iterable[Finding]:
        scheds = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and call_last(n) in STEP_SCHEDULERS]
        if not scheds:
            return
        misplaced: Optional[ast.expr] = None
        for d in ast.walk(fn):
            if not isinstance(d, ast.Dict):
                continue
            keys = _dict_keys(d)
            interval = keys.get("interval")
            if interval is None or const_str(interval) != "step":
                continue
            if "scheduler" in keys:
                return
            if "optimizer" in keys:
                misplaced = interval
        sched = scheds[0]
        where = (" (`\"interval\": \"step\"` sits beside `\"optimizer\"`, where Lightning ignores it: it belongs "
                 "in the `\"lr_scheduler\"` dict)") if misplaced is not None else ""
        at = _returned_at(ctx, fn, sched)
        evidence = [ctx.evidence(sched, f"the per-step `{call_last(sched)}` is built here")] if at is not sched else []
        if misplaced is not None:
            evidence.append(ctx.evidence(misplaced, "ignored here"))
        yield ctx.finding(
            self, at,
            f"`{call_last(sched)}` is a per-step schedule but Lightning steps it once per epoch{where}: the "
            "learning rate barely moves over the run. Return "
            "`{\"optimizer\": opt, \"lr_scheduler\": {\"scheduler\": sched, \"interval\": \"step\"}}`",
            evidence=evidence or None)


def _returned_at(ctx: FileContext, fn: ast.FunctionDef, sched: ast.Call) -> ast.AST:
    """The ``return`` that hands the scheduler to Lightning (the line to change), else the scheduler."""
    parent = ctx.parent(sched)
    names = {t.id for t in parent.targets if isinstance(t, ast.Name)} if isinstance(parent, ast.Assign) else set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and node.value is not None and any(
                n is sched or (isinstance(n, ast.Name) and n.id in names) for n in ast.walk(node.value)):
            return node
    return sched
