"""PF303 discarded-tensor-to: ``x.to(device)`` on a tensor whose result is thrown away."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.devices import DeviceFacts, device_facts
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# Tensor methods that return a new tensor and leave the receiver as it was
# (on an nn.Module the same names work in place).
COPYING = frozenset({"to", "cuda", "cpu", "half", "float", "double", "bfloat16"})


@register
class DiscardedTensorTo(Rule):
    code = "PF303"
    name = "discarded-tensor-to"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = "`x.to(device)` on a tensor is used as a statement, so the tensor never moves"
    explanation = """
## What it finds

A statement like `x.to(device)`, `x.cuda()`, `x.cpu()` or `x.half()` whose
result is not assigned, where `x` is known to be a **tensor**: a
`torch.<factory>()`/`torch.tensor(...)` result, a tensor method of one, a model
output, or a field unpacked from a `DataLoader` batch (`for x, y in loader:`).

## Why it matters

For an `nn.Module`, `.to()` / `.cuda()` / `.half()` convert the module in place,
so `model.to(device)` as a statement is correct. For a tensor they are *not* in
place: they return a new tensor and leave `x` where it was (PyTorch docs,
`Tensor.to`: "the returned tensor is a copy of `self` with the desired
`torch.dtype` and `torch.device`"; `Module.to`: "This method modifies the
module in-place").
The line does nothing, `x` stays on the CPU (or in its old dtype), and the
next use either fails with a device-mismatch error or silently runs on the CPU.

## How to fix it

Rebind the result: `x = x.to(device)`.

## When preflight stays silent

* The receiver is, or may be, a module (`model.to(device)`), or anything
  preflight cannot prove is a tensor: objects whose `.to()` works in place
  (Hugging Face `BatchEncoding`, PyG `Data`, torchmetrics metrics), unknown
  function results, function parameters without a `torch.Tensor` annotation,
  batches from a loader with a custom `collate_fn`.
* The result is used (`x = x.to(device)`, `model(x.to(device))`).

The rule is not limited to training loops: a dropped `.to()` is a dead line
wherever it is, and the receiver must be proven to be a tensor.
"""
    bad_examples = examples("preflight.rules.code._pf30x_examples", "PF303_BAD")
    good_examples = examples("preflight.rules.code._pf30x_examples", "PF303_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        facts: Optional[DeviceFacts] = None
        for stmt in ctx.nodes(ast.Expr):
            call = stmt.value
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr in COPYING and isinstance(call.func.value, ast.Name)):
                continue
            facts = facts or device_facts(ctx)
            found = self._check(ctx, facts, stmt, call)
            if found is not None:
                yield found

    def _check(self, ctx: FileContext, facts: DeviceFacts, stmt: ast.Expr,
               call: ast.Call) -> Optional[Finding]:
        assert isinstance(call.func, ast.Attribute)
        receiver = call.func.value
        assert isinstance(receiver, ast.Name)
        fn = facts.scopes.function_of(stmt)
        if facts.is_module(receiver, fn) or not facts.is_tensor(receiver, fn):
            return None
        binds = facts.name_bindings(receiver.id, fn)
        text = ast.unparse(call)
        message = (
            f"`{text}` returns a new tensor and the result is discarded: for a tensor (unlike "
            f"an nn.Module) `.{call.func.attr}()` is not in place, so `{receiver.id}` stays where "
            f"it was. Write `{receiver.id} = {text}`")
        evidence = []
        if binds:
            first = binds[0][0]
            if any(facts.is_batch_field(t) for t, _ in binds):
                note = f"`{receiver.id}` is a field of a DataLoader batch: a tensor"
            else:
                note = f"`{receiver.id}` is bound to a tensor here"
            evidence.append(ctx.evidence(first, note))
        evidence.append(ctx.evidence(stmt, "the returned tensor is dropped"))
        return ctx.finding(self, stmt, message, evidence=evidence)
