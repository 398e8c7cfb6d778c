"""PF693 empty-cache-every-step: ``torch.cuda.empty_cache()`` on every training step (in the batch loop, or
unconditionally in a ``training_step`` override): it frees nothing a leak holds and makes every step slower."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.devices import device_facts
from preflight.analysis.scopes import LoopInfo
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_EMPTY_CACHE = frozenset({"torch.cuda.empty_cache", "torch.xpu.empty_cache", "torch.mps.empty_cache",
                          "torch.npu.empty_cache"})
# the statements between a call and its function that still run on every call of that function
_PASS_THROUGH = (ast.With, ast.AsyncWith)


def _unconditional_in(ctx: FileContext, call: ast.Call, func: ast.AST) -> bool:
    """The call's statement runs whenever ``func`` runs: nothing but ``with`` blocks in between."""
    for anc in ctx.ancestors(call):
        if anc is func:
            return True
        if isinstance(anc, ast.stmt) and not isinstance(anc, (ast.Expr, *_PASS_THROUGH)):
            return False
        if isinstance(anc, (ast.IfExp, ast.BoolOp, ast.Lambda, ast.comprehension)):
            return False
    return False


def _trains_directly(loop: ast.AST) -> bool:
    """The loop's own body back-propagates or steps an optimizer (not only through a helper that trains a
    whole epoch), and it does not iterate a literal list of settings (a test over shapes)."""
    if isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.iter, (ast.Tuple, ast.List)):
        return False
    stack = list(ast.iter_child_nodes(loop))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr == "backward" or (node.func.attr == "step" and "opt" in ast.unparse(node).lower())):
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _training_step_method(ctx: FileContext, call: ast.Call) -> Optional[ast.AST]:
    """The ``training_step`` method of a class (Lightning, a Trainer subclass) that holds the call."""
    func = ctx.enclosing(call, ast.FunctionDef, ast.AsyncFunctionDef)
    if func is None or getattr(func, "name", "") != "training_step":
        return None
    if not isinstance(ctx.parent(func), ast.ClassDef):
        return None
    return func


@register
class EmptyCacheEveryStep(Rule):
    code = "PF693"
    name = "empty-cache-every-step"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    needs_text = ("empty_cache",)
    summary = "`torch.cuda.empty_cache()` runs on every training step: it slows each step and fixes no leak"
    explanation = """
## What it finds

`torch.cuda.empty_cache()` (or the XPU/MPS/NPU equivalent) called unconditionally in the
body of a training loop (a loop that runs backward or an optimizer step), or
unconditionally in a `training_step` method (Lightning, a `transformers.Trainer`
subclass).

## Why it matters

`empty_cache` hands the blocks PyTorch's caching allocator keeps back to the driver. The
next step needs the same memory again and gets it through `cudaMalloc`, which
synchronises the device: every step pays for fresh allocations and a sync, often tens of
milliseconds. It does not free a single tensor that is still referenced, so it does not
cure a growing-memory bug (a loss kept with its graph, outputs stored in a list); it only
hides fragmentation. Reports: transformers issue 31372 (an `empty_cache` added to
`Trainer.training_step` slowed training and was removed again in PR 31530),
visdial-challenge-starter PR 34 (moved from every batch to every epoch), axolotl PR 1858
(added per step "to help with memory leak/creep").

## How to fix it

Find what keeps memory alive (`loss.item()` instead of `loss` in running sums and lists,
`torch.no_grad()` in evaluation). If fragmentation is the real problem, set
`PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`, or call `empty_cache()` rarely: after
evaluation, once per epoch, or every N steps.

## When preflight stays silent

* The call is under a condition (`if step % 100 == 0:`, `if oom:`), in an `except`
  branch, or in an epoch loop around the batch loop.
* The loop does not train (an evaluation or generation loop), trains only through a helper
  that runs a whole epoch (`loss = train(epoch)`), iterates a literal list of settings, or
  sits in a `test_*` function.
"""
    bad_examples = examples("preflight.rules.code._pf693_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf693_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        facts = device_facts(ctx)
        outer: set[LoopInfo] = {loop.parent for loop in facts.scopes.loops.values()
                                if loop.training and loop.parent is not None}
        seen: set[int] = set()
        for call, _fn in facts.scopes.bindings.call_functions:
            if (facts.imports.qualify(call.func) or "") not in _EMPTY_CACHE:
                continue
            method = _training_step_method(ctx, call)
            if method is not None:
                if _unconditional_in(ctx, call, method):
                    yield ctx.finding(
                        self, call,
                        f"`{ast.unparse(call)}` runs on every call of `training_step`: the memory it returns "
                        "to the driver is allocated again by the next step (a device synchronisation and "
                        "`cudaMalloc` each time), and no tensor that is still referenced is freed by it. Remove "
                        "it, or run it every N steps",
                        evidence=[ctx.evidence(method, "the per-step hook")])
                continue
            place = facts.step_place(call)
            if place is None or place.guard is not None or place.inner or place.loop in outer:
                continue
            if id(place.loop) in seen or not _trains_directly(place.loop.node):
                continue
            func = ctx.enclosing(call, ast.FunctionDef, ast.AsyncFunctionDef)
            if func is not None and getattr(func, "name", "").startswith("test"):
                continue  # a test, not a training job
            seen.add(id(place.loop))
            tc = place.loop.evidence
            what = f": it {tc.describe()}" if tc is not None else ""
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call)}` runs on every training step: the memory it returns to the driver is "
                "allocated again by the next step (a device synchronisation and `cudaMalloc` each time), and "
                "no tensor that is still referenced is freed by it, so it slows training without fixing a "
                "leak. Remove it, or run it once per epoch or every N steps",
                evidence=[ctx.evidence(place.loop.node, f"the training loop{what}")])
