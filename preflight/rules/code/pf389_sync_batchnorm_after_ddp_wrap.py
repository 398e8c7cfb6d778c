"""PF389 sync-batchnorm-converted-after-ddp-wrap: ``SyncBatchNorm.convert_sync_batchnorm`` applied to a
model that ``DistributedDataParallel`` already wraps."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, is_from, qualify, target_text
from preflight.rules.base import Rule, examples


def _is_ddp(ctx: FileContext, node: Optional[ast.AST]) -> bool:
    if not isinstance(node, ast.Call):
        return False
    qual = qualify(ctx, node.func)
    return is_from(qual, "torch.nn.parallel", "DistributedDataParallel") or \
        is_from(qual, "torch.nn", "DistributedDataParallel")


def _assignments(scope: ast.AST, ctx: FileContext) -> list[tuple[int, str, ast.expr]]:
    """(line, target text, value) of the plain assignments of ``scope`` (nested functions left out)."""
    out: list[tuple[int, str, ast.expr]] = []
    for node in ast.walk(scope):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        if ctx.enclosing_function(node) is not (scope if not isinstance(scope, ast.Module) else None):
            continue
        text = target_text(node.targets[0])
        if text:
            out.append((node.lineno, text, node.value))
    return out


def _wrapped_before(ctx: FileContext, call: ast.Call, name: str) -> Optional[ast.Call]:
    """The ``DDP(...)`` call ``name`` was last bound to before ``call`` in the same function."""
    scope = ctx.enclosing_function(call) or ctx.parsed.tree
    before = [(line, value) for line, text, value in _assignments(scope, ctx)
              if text == name and line < call.lineno]
    if not before:
        return None
    value = max(before, key=lambda item: item[0])[1]
    return value if _is_ddp(ctx, value) and isinstance(value, ast.Call) else None


@register
class SyncBatchNormAfterDdpWrap(Rule):
    code = "PF389"
    name = "sync-batchnorm-converted-after-ddp-wrap"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("convert_sync_batchnorm",)
    summary = ("`SyncBatchNorm.convert_sync_batchnorm` runs on a model `DistributedDataParallel` already "
               "wraps: the new SyncBatchNorm parameters are not the ones DDP registered")
    explanation = """
## What it finds

`torch.nn.SyncBatchNorm.convert_sync_batchnorm(model)` where `model` was last bound, in the same
function, to `DistributedDataParallel(...)` (or the conversion is applied to a `DDP(...)` call
directly).

## Why it matters

`convert_sync_batchnorm` replaces every BatchNorm layer by a new `SyncBatchNorm` module with new
weight and bias `Parameter`s and new running buffers. DDP builds its reducer (the buckets of
parameters whose gradients it all-reduces) and its buffer broadcast list when it is constructed:
after the conversion the module holds parameters DDP never registered, so their gradients are not
averaged across ranks, the ranks' normalisation layers drift apart, and DDP's bookkeeping no
longer matches the module (errors about parameters that did not receive gradients, or silent
divergence). NVIDIA's answer in apex issue 109 and the PyTorch docs of `SyncBatchNorm` both convert
before wrapping: every change to the model has to happen before `DDP(model)`.

## How to fix it

Convert first, then wrap:
`model = DDP(nn.SyncBatchNorm.convert_sync_batchnorm(model).cuda(rank), device_ids=[rank])`.

## When preflight stays silent

* The converted name was last bound to something other than a `DistributedDataParallel(...)`
  call in the same function (the conversion runs before the wrap, or on `model.module` handed
  to a new DDP afterwards is not followed).
* The wrapper is not PyTorch's DDP (a project's own class, apex's `DistributedDataParallel`,
  Lightning or accelerate, which convert before wrapping).
"""
    bad_examples = examples("preflight.rules.code._pf389_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf389_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            if not is_from(qual, "torch.nn", "convert_sync_batchnorm") or not call.args:
                continue
            arg = call.args[0]
            wrap: Optional[ast.Call] = arg if _is_ddp(ctx, arg) and isinstance(arg, ast.Call) else None
            name = target_text(arg)
            if wrap is None and name:
                wrap = _wrapped_before(ctx, call, name)
            if wrap is None:
                continue
            shown = name or "the model"
            yield ctx.finding(
                self, call,
                f"`{shown}` is already wrapped in DistributedDataParallel (line {wrap.lineno}) when "
                "`convert_sync_batchnorm` replaces its BatchNorm layers: the new SyncBatchNorm weights, biases "
                "and buffers are not the ones DDP registered, so their gradients are not all-reduced and the "
                "ranks drift apart. Convert before wrapping: `DDP(SyncBatchNorm.convert_sync_batchnorm(model))`",
                evidence=[ctx.evidence(wrap, "the model is wrapped in DDP here")])
