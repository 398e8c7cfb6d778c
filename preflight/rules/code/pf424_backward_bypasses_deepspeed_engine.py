"""PF424 backward-bypasses-deepspeed-engine: ``loss.backward()`` next to a DeepSpeed engine."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules._pf414_support import assigned_names, call_last
from preflight.rules.base import Rule, examples


@register
class BackwardBypassesDeepspeedEngine(Rule):
    code = "PF424"
    needs_text = ('initialize',)
    name = "backward-bypasses-deepspeed-engine"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = "`loss.backward()` / `optimizer.step()` bypass the engine returned by `deepspeed.initialize`"
    explanation = """
## What it finds

A file that builds an engine with `deepspeed.initialize(...)` and trains with
`loss.backward()` (or steps the optimizer `initialize` returned) instead of
`engine.backward(loss)` and `engine.step()`.

## Why it matters

`engine.backward` is where DeepSpeed scales the loss (fp16), reduces and
partitions the gradients across ranks (ZeRO) and counts the accumulation
window; `engine.step` clips, steps, zeroes and advances the schedule. A plain
`loss.backward()` trains every rank on its own gradients ("gradients will not
be averaged", DeepSpeed issue 329) or fails inside ZeRO ("'DeepSpeedZeroOptimizer'
object has no attribute 'ipg_index'", issue 6995).

## How to fix it

`engine.backward(loss)` then `engine.step()`.

## When preflight stays silent

* The file calls `engine.backward(...)` (another model may be trained by hand beside it).
"""
    bad_examples = examples("preflight.rules.code._pf414_examples", "PF424_BAD")
    good_examples = examples("preflight.rules.code._pf414_examples", "PF424_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        inits = [c for c in ctx.nodes(ast.Call) if call_last(c) == "initialize"
                 and isinstance(c.func, ast.Attribute) and target_text(c.func.value) == "deepspeed"]
        if not inits:
            return
        engines = set()
        for call in inits:
            names = assigned_names(ctx, call)
            if names:
                engines.add(names[0])
        if not engines:
            return
        backwards = [c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == "backward"]
        if any(target_text(c.func.value) in engines for c in backwards if isinstance(c.func, ast.Attribute)):
            return
        for call in backwards:
            recv = call.func.value  # type: ignore[attr-defined]
            if (isinstance(recv, ast.Name) and recv.id in ("torch", "self", "accelerator")) or call.lineno < inits[0].lineno:
                continue
            engine = sorted(engines)[0]
            yield ctx.finding(
                self, call,
                f"`.backward()` bypasses the DeepSpeed engine `{engine}`: the loss is not scaled, the gradients "
                "are not reduced or partitioned across ranks and the accumulation window is not counted. Call "
                f"`{engine}.backward(loss)` and `{engine}.step()`",
                evidence=[ctx.evidence(inits[0], f"`{engine}` is the engine `deepspeed.initialize` returned")])
            return
