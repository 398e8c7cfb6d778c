"""PF417 backward-under-manual-optimization: ``loss.backward()`` in a LightningModule that optimizes by hand."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import manual_optimization, may_optimize_manually, method_calls
from preflight.rules.base import Rule, examples


@register
class BackwardUnderManualOptimization(Rule):
    code = "PF417"
    needs_text = ('automatic_optimization',)
    name = "backward-under-manual-optimization"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = "`loss.backward()` is called in a LightningModule with `automatic_optimization = False`"
    explanation = """
## What it finds

A LightningModule that sets `self.automatic_optimization = False` and calls
`<tensor>.backward()` itself instead of `self.manual_backward(loss)`.

## Why it matters

`manual_backward` is where Lightning applies the precision plugin (loss scaling
under `precision="16-mixed"`), the strategy's hooks (DDP gradient sync under
`no_sync`, DeepSpeed's engine backward, FSDP) and gradient accumulation. A plain
`backward()` skips them: under fp16 the optimizer step then unscales gradients
that were never scaled, and under DeepSpeed the gradients are never reduced
(Lightning issue 18740: "manual_backward and .backward() have different behaviour").

## How to fix it

Call `self.manual_backward(loss)`.

## When preflight stays silent

* Automatic optimization (Lightning calls backward itself; PF404 covers calling
  the optimizer by hand there).
* `self.manual_backward(...)`, `torch.autograd.grad(...)`.
"""
    bad_examples = examples("preflight.rules.code._pf417_examples", "PF417_BAD")
    good_examples = examples("preflight.rules.code._pf417_examples", "PF417_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if not may_optimize_manually(ctx):
            return
        for cls in ctx.nodes(ast.ClassDef):
            flag = manual_optimization(cls)
            if flag is None:
                continue
            for call in method_calls(cls, "backward"):
                recv = call.func.value  # type: ignore[attr-defined]
                if (isinstance(recv, ast.Name) and recv.id in ("self", "torch")) or \
                        (isinstance(recv, ast.Attribute) and isinstance(recv.value, ast.Name) and recv.value.id == "torch"):
                    continue
                yield ctx.finding(
                    self, call,
                    "this LightningModule optimizes by hand (`automatic_optimization = False`) but calls "
                    "`.backward()` directly: Lightning's precision scaling, strategy hooks and accumulation only "
                    "run in `self.manual_backward(loss)`. Call `self.manual_backward(...)` instead",
                    evidence=[ctx.evidence(flag, "manual optimization is switched on here")])
