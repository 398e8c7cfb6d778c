"""PF691 no-sync-around-backward-only: a DDP ``no_sync()`` block (``model.no_sync()`` or
``accelerator.no_sync(model)``) that holds only the backward, with the forward pass run before the block:
DDP decides in the forward whether the next backward all-reduces, so every micro-batch still synchronises."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# the gradient-sync decision of these wrappers is taken at backward time, so no_sync around the backward
# alone works for them: a file that uses them is left alone
_BACKWARD_TIME_WRAPPERS = ("FullyShardedDataParallel", "FSDP", "fsdp", "fully_shard", "deepspeed", "DeepSpeed")
# calls a backward-only block may hold besides the backward: loss scaling, detaching, logging of numbers
_HARMLESS = {"scale", "detach", "item", "float", "div", "div_", "mul", "mul_", "len", "print", "append", "debug",
             "info", "log", "update", "int", "sum", "mean"}


def _no_sync_receiver(expr: ast.expr) -> Optional[str]:
    """The model of ``X.no_sync()`` / ``accelerator.no_sync(X)`` (an unparsed name), else None."""
    if not isinstance(expr, ast.Call) or not isinstance(expr.func, ast.Attribute) or expr.func.attr != "no_sync":
        return None
    owner = ast.unparse(expr.func.value)
    if "accelerator" in owner.lower():
        return ast.unparse(expr.args[0]) if len(expr.args) == 1 else None
    return None if expr.args or expr.keywords else owner


def _context_receiver(expr: ast.expr, bound: dict[str, ast.expr]) -> Optional[str]:
    """The model whose ``no_sync`` this ``with`` item enters: the call itself, one branch of a conditional
    expression (``model.no_sync() if not last else nullcontext()``), or a local name bound to one of those
    (``ctx = model.no_sync if ... else nullcontext`` then ``with ctx():``)."""
    if isinstance(expr, ast.IfExp):
        return _context_receiver(expr.body, bound) or _context_receiver(expr.orelse, bound)
    found = _no_sync_receiver(expr)
    if found is not None:
        return found
    if isinstance(expr, ast.Call) and not expr.args and not expr.keywords:
        inner = expr.func
        if isinstance(inner, ast.Name) and inner.id in bound:
            inner = bound[inner.id]
        return _uncalled_receiver(inner)
    if isinstance(expr, ast.Name) and expr.id in bound:
        return _context_receiver(bound[expr.id], {})
    return None


def _uncalled_receiver(expr: ast.expr) -> Optional[str]:
    """``model.no_sync`` (not called), possibly in a branch of a conditional expression."""
    if isinstance(expr, ast.IfExp):
        return _uncalled_receiver(expr.body) or _uncalled_receiver(expr.orelse)
    if isinstance(expr, ast.Attribute) and expr.attr == "no_sync" and \
            "accelerator" not in ast.unparse(expr.value).lower():
        return ast.unparse(expr.value)
    return None


def _is_backward(call: ast.Call) -> bool:
    """``loss.backward()``, ``scaler.scale(loss).backward()``, ``accelerator.backward(loss)``."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "backward"):
        return False
    return not call.args or "accelerator" in ast.unparse(func.value).lower()


def _backward_only(body: list[ast.stmt]) -> Optional[ast.Call]:
    """The backward of a block that runs nothing but the backward (and loss arithmetic, scaling or logging of
    numbers): no call that could run the forward pass. None when the block may run the forward."""
    backward: Optional[ast.Call] = None
    for stmt in body:
        if not isinstance(stmt, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Pass)):
            return None  # loops, branches, nested blocks: the forward may hide there
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)):
                return None
            if not isinstance(node, ast.Call):
                continue
            if _is_backward(node):
                backward = backward or node
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name not in _HARMLESS:
                return None
    return backward


def _bound_contexts(func: Optional[ast.AST]) -> dict[str, ast.expr]:
    """Local names bound once, in the enclosing function, to an expression that may enter ``no_sync``."""
    bound: dict[str, ast.expr] = {}
    if func is None:
        return bound
    seen: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in seen:
                bound.pop(name, None)
                continue
            seen.add(name)
            if "no_sync" in ast.unparse(node.value):
                bound[name] = node.value
    return bound


@register
class NoSyncAroundBackwardOnly(Rule):
    code = "PF691"
    name = "no-sync-around-backward-only"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("pytorch", "accelerate")
    needs_text = ("no_sync",)
    summary = ("A DDP `no_sync()` block holds only the backward; the forward ran before it, so every "
               "micro-batch still all-reduces its gradients")
    explanation = """
## What it finds

A `with model.no_sync():` (or `with accelerator.no_sync(model):`) block, typically on the
accumulating micro-batches of a hand-written gradient accumulation, whose body runs only
the backward (`loss.backward()`, `scaler.scale(loss).backward()`,
`accelerator.backward(loss)`, with loss arithmetic or logging of numbers), while the
forward pass that produced the loss ran before the block, in a file that wraps the model
in `DistributedDataParallel` (or prepares it with Accelerate). The context may be entered
through a conditional expression (`model.no_sync() if not last else nullcontext()`) or a
local name bound to one.

## Why it matters

`DistributedDataParallel` decides in the *forward* pass whether the next backward
all-reduces the gradients: `forward` calls `prepare_for_backward` when
`require_backward_grad_sync` is set, and `no_sync()` only clears that flag while the block
runs. A forward run outside the block has already armed the reducer, so the backward in
the block still all-reduces the full gradients on every micro-batch: the accumulation
saves no communication at all. PyTorch's `no_sync` docstring warns that "the forward pass
should be included inside the context manager, or else gradients will still be
synchronized". Reports: LoongForge PR 163 ("`no_sync()` around `backward()` alone was a
no-op, so grads were all-reduced on every micro-step"), ClassyVision PR 706, speechbrain
issue 1802 (DDP slower than one GPU until the forward went inside `no_sync`), PiPPy issue
1133, accelerate PR 1726.

## How to fix it

Run the forward and the backward of every accumulating micro-batch inside the block:

```python
ctx = model.no_sync() if (step + 1) % accum != 0 else contextlib.nullcontext()
with ctx:
    loss = criterion(model(x), y) / accum
    loss.backward()
```

## When preflight stays silent

* The block calls anything that may run the forward (the model, a helper, a loss function).
* The file uses FSDP, `fully_shard` or DeepSpeed: their gradient reduction is decided in the
  post-backward hooks, so `no_sync` around the backward alone is effective there.
"""
    bad_examples = examples("preflight.rules.code._pf691_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf691_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        if any(ctx.mentions(word) for word in _BACKWARD_TIME_WRAPPERS):
            return
        if not (ctx.mentions("DistributedDataParallel") or ctx.mentions("DDP") or ctx.mentions("accelerator")):
            return
        bound_by_function: dict[int, dict[str, ast.expr]] = {}
        for block in ctx.nodes(ast.With, ast.AsyncWith):
            func = ctx.enclosing_function(block)
            key = id(func)
            if key not in bound_by_function:
                bound_by_function[key] = _bound_contexts(func or ctx.tree)
            receiver = next((r for r in (_context_receiver(i.context_expr, bound_by_function[key])
                                         for i in block.items) if r is not None), None)
            if receiver is None:
                continue
            backward = _backward_only(block.body)
            if backward is None:
                continue
            yield ctx.finding(
                self, backward,
                f"`{ast.unparse(backward)}` is the only work inside `no_sync` of `{receiver}`: DDP decides in the "
                "forward pass whether the backward all-reduces, and the forward that produced this loss ran "
                "before the block, so the gradients are still synchronised on every micro-batch. Move the "
                "forward pass into the `no_sync` block",
                evidence=[ctx.evidence(block, "the no_sync block, entered after the forward pass")])
