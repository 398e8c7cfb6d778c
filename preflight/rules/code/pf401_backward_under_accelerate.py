"""PF401 backward-under-accelerate: ``loss.backward()`` in a loop that Accelerate drives."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.accumulation import accumulation
from preflight.analysis.context import FileContext
from preflight.analysis.scopes import FunctionInfo, scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_calls,
    unparse,
)
from preflight.rules.base import Rule, examples


def _prepared_by_scope(prepares: list[ast.Call], ctx: FileContext) -> dict[FunctionInfo, set[str]]:
    """Names bound to what ``accelerator.prepare`` returns, per scope of the ``prepare`` call."""
    scopes = scope_index(ctx)
    out: dict[FunctionInfo, set[str]] = {}
    for call in prepares:
        names = out.setdefault(scopes.function_of(call), set())
        parent = ctx.parent(call)
        if isinstance(parent, ast.Assign):
            for tgt in parent.targets:
                names.update(n.id for n in ast.walk(tgt) if isinstance(n, ast.Name))
    return out


def _driven_by_accelerate(fn: FunctionInfo, prepared: dict[FunctionInfo, set[str]]) -> bool:
    """``fn`` prepares with Accelerate itself, or an in-file caller hands it prepared objects."""
    if fn in prepared:
        return True
    for site in fn.call_sites:
        names = prepared.get(site.caller, set())
        args = [*site.call.args, *(k.value for k in site.call.keywords)]
        if any(isinstance(n, ast.Name) and n.id in names for a in args for n in ast.walk(a)):
            return True
    return False


@register
class BackwardUnderAccelerate(Rule):
    code = "PF401"
    needs_text = ('prepare',)
    name = "backward-under-accelerate"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("accelerate",)
    summary = "`loss.backward()` is called where Accelerate requires `accelerator.backward(loss)`"
    explanation = """
## What it finds

A training loop whose model and optimizer went through `accelerator.prepare(...)`
but whose loss is back-propagated with `loss.backward()` (or
`scaler.scale(loss).backward()`) instead of `accelerator.backward(loss)`.

## Why it matters

`accelerator.backward` is where Accelerate does the work that the launch
configuration asks for: it scales the loss for fp16 mixed precision (with its own
`GradScaler`), divides it by `gradient_accumulation_steps`, and hands it to the
DeepSpeed or Megatron engine when one is configured. A plain `loss.backward()`
skips all of it. The script runs without error on one GPU in fp32, and then
underflows in fp16, accumulates N-times-too-large gradients, or fails under
DeepSpeed once it is launched with `accelerate launch --mixed_precision fp16` or a
DeepSpeed config: the bug depends on the launch, not on the code.

## How to fix it

Replace `loss.backward()` with `accelerator.backward(loss)` (the Accelerate
quick tour: "Replace `loss.backward()` with `accelerator.backward(loss)`").

## When preflight stays silent

* `accelerator.backward(loss)`; a file without an `Accelerator(...)`, or whose
  Accelerator prepares nothing.
* A backward in a function that neither calls `accelerator.prepare` itself nor is
  handed what `prepare` returned by an in-file caller (a separate raw-PyTorch
  baseline loop in the same file, which may use the accelerator for its device).
* Lightning `manual_backward`, Fabric's `fabric.backward`, `torch.autograd.backward`.
"""
    bad_examples = examples("preflight.rules.code._pf40x_examples", "PF401_BAD")
    good_examples = examples("preflight.rules.code._pf40x_examples", "PF401_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        prepares = accelerator_calls(ctx, "prepare")
        if not prepares:
            return
        prepared = _prepared_by_scope(prepares, ctx)
        for site in accumulation(ctx).sites:
            call = site.backward
            if site.owner.kind != "plain" or not isinstance(call.func, ast.Attribute):
                continue
            if call.func.attr != "backward" or call.args:
                continue
            if not _driven_by_accelerate(site.function, prepared):
                continue
            receiver = unparse(call.func.value, 40)
            message = (
                f"`{receiver}.backward()` bypasses Accelerate: `accelerator.backward(loss)` is what scales "
                "the loss for fp16, divides it by `gradient_accumulation_steps` and hands it to a DeepSpeed "
                "engine, so this loop trains correctly only when launched without mixed precision, "
                "accumulation or DeepSpeed. Call `accelerator.backward(loss)` instead")
            evidence = [ctx.evidence(prepares[0], "the model and optimizer are prepared by Accelerate here"),
                        ctx.evidence(call, "plain backward")]
            yield ctx.finding(self, call, message, evidence=evidence)
