"""PF426 manual-clip-under-deepspeed: ``clip_grad_norm_`` by hand between ``engine.backward`` and ``engine.step``."""

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
class ManualClipUnderDeepspeed(Rule):
    code = "PF426"
    needs_text = ('initialize',)
    name = "manual-clip-under-deepspeed"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = "`torch.nn.utils.clip_grad_norm_` is called by hand on a DeepSpeed engine's parameters"
    explanation = """
## What it finds

`torch.nn.utils.clip_grad_norm_(...)` (or `clip_grad_value_`) in a loop that
trains a DeepSpeed engine (`engine.backward(loss)` ... `engine.step()`).

## Why it matters

DeepSpeed keeps the gradients in its own buffers (fp16 copies, ZeRO partitions
reduced across ranks) and clips them inside `engine.step()` with the config's
`gradient_clipping`. A hand-written clip on `engine.parameters()` sees unreduced,
partitioned or loss-scaled gradients (often `None` under ZeRO-2/3): it clips the
wrong values or nothing, and the run behaves as if clipping were off
(transformers issue 37566, DeepSpeed issue 7220).

## How to fix it

Remove the call and set `"gradient_clipping": 1.0` in the DeepSpeed config.

## When preflight stays silent

* No DeepSpeed engine is built in the file.
"""
    bad_examples = examples("preflight.rules.code._pf426_examples", "PF426_BAD")
    good_examples = examples("preflight.rules.code._pf426_examples", "PF426_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if "initialize" not in ctx.call_names():
            return  # no ``deepspeed.initialize(...)``: no engine
        engines = set()
        for call in ctx.nodes(ast.Call):
            if call_last(call) == "initialize" and isinstance(call.func, ast.Attribute) \
                    and target_text(call.func.value) == "deepspeed":
                names = assigned_names(ctx, call)
                if names:
                    engines.add(names[0])
        if not engines:
            return
        # a loop, or a per-step method (``def training_step(self, batch)``) that a harness calls
        for loop in ctx.nodes(ast.For, ast.While, ast.FunctionDef, ast.AsyncFunctionDef):
            calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
            trains = any(isinstance(c.func, ast.Attribute) and c.func.attr in ("backward", "step")
                         and target_text(c.func.value) in engines for c in calls)
            if not trains:
                continue
            for c in calls:
                if call_last(c) in ("clip_grad_norm_", "clip_grad_value_") and not (
                        isinstance(c.func, ast.Attribute) and target_text(c.func.value) in engines):
                    yield ctx.finding(
                        self, c,
                        "a hand-written gradient clip in a DeepSpeed training loop: the engine keeps its own "
                        "(reduced, partitioned, loss-scaled) gradients and clips inside `engine.step()` with the "
                        "config's `gradient_clipping`, so this call clips the wrong values or none. Remove it and "
                        "set `\"gradient_clipping\"` in the DeepSpeed config")
                    return
