"""PF104 zero-grad-wipes-gradients: zero_grad() runs between backward() and step()."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import GradEvent, GradSteps, grad_steps
from preflight.analysis.scopes import FunctionInfo
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_BLOCKS = ("body", "orelse", "finalbody")
_STOP = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.For, ast.AsyncFor,
         ast.While, ast.Module)


def _block_of(ctx: FileContext, stmt: ast.stmt) -> Optional[tuple[ast.AST, list[ast.stmt], int]]:
    parent = ctx.parent(stmt)
    if parent is None:
        return None
    for name in _BLOCKS:
        block = getattr(parent, name, None)
        if isinstance(block, list) and stmt in block:
            return parent, block, block.index(stmt)
    for handler in getattr(parent, "handlers", ()) or ():
        if stmt in handler.body:
            return handler, handler.body, handler.body.index(stmt)
    return None


def _statement(ctx: FileContext, node: ast.AST) -> Optional[ast.stmt]:
    cur: Optional[ast.AST] = node
    while cur is not None and not isinstance(cur, ast.stmt):
        cur = ctx.parent(cur)
    return cur


def _kinds_in(stmt: ast.stmt, events: list[GradEvent], steps: GradSteps,
              step: GradEvent) -> tuple[bool, bool]:
    """(runs a backward, steps this optimizer) somewhere inside ``stmt`` (``events``: its own)."""
    backward = stepped = False
    for e in events:
        if e.kind in ("backward", "helper-backward"):
            backward = True
        elif e.kind == "step" and steps.same_optimizer(e, step):
            stepped = True
    return backward, stepped


@register
class ZeroGradWipesGradients(Rule):
    code = "PF104"
    name = "zero-grad-wipes-gradients"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = "zero_grad() runs after backward() and before step(), so the step applies no gradients"
    frameworks = ("pytorch", "lightning", "fabric", "accelerate")
    explanation = """
## What it finds

`optimizer.zero_grad()` (or `model.zero_grad()` on the model that optimizer trains)
placed after `loss.backward()` and before `optimizer.step()` in the same step:

```python
loss.backward()
optimizer.zero_grad()
optimizer.step()
```

## Why it matters

`zero_grad()` wipes what `backward()` just computed. The step then sees zero
gradients (or, with `set_to_none=True`, none at all and skips every parameter):
the model does not learn from any batch, except for weight decay pulling the weights
towards zero. Loss curves stay flat while the job burns its budget.

## How to fix it

Move `zero_grad()` before the forward/backward, or after `optimizer.step()`.

## When preflight stays silent

* `zero_grad()` comes after the step, or before the backward, or another backward
  runs between the `zero_grad()` and the step (the step then applies that backward's
  gradients).
* `zero_grad()` clears a different optimizer (a GAN's other network), or a model
  preflight cannot tie to the stepping optimizer.
* `zero_grad()` and the step are not in one block (e.g. the step only inside the
  accumulation `if`, the `zero_grad()` outside it): preflight only reports an order
  it can prove, where the step always follows the `zero_grad()`.
"""
    bad_examples = examples("preflight.rules.code._pf104_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf104_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        for zero in steps.events:
            if zero.kind not in ("zero", "zero-model", "reset") or zero.key is None:
                continue  # a "reset" with a key is `x.zero_grad()` on an unresolved `x`
            found = self._check(ctx, steps, zero)
            if found is not None:
                yield found

    def _check(self, ctx: FileContext, steps: GradSteps, zero: GradEvent) -> Optional[Finding]:
        stmt = _statement(ctx, zero.node)
        if stmt is None or not isinstance(stmt, ast.Expr) or stmt.value is not zero.node:
            return None
        located = _block_of(ctx, stmt)
        if located is None:
            return None
        _, block, index = located
        fn = zero.function
        # the step: a later statement in the same block, with no backward in between
        step: Optional[GradEvent] = None
        for later in block[index + 1:]:
            inside = steps.inside(fn, later)
            for e in inside:
                if e.kind == "step" and self._clears(steps, zero, e):
                    step = e
                    break
            if step is not None:
                break
            if any(e.kind in ("backward", "helper-backward", "reset", "opaque") for e in inside):
                return None
        if step is None or _statement(ctx, step.node) not in block:
            return None
        backward = self._backward_before(ctx, steps, fn, stmt, step)
        if backward is None:
            return None
        return self._report(ctx, zero, step, backward)

    def _clears(self, steps: GradSteps, zero: GradEvent, step: GradEvent) -> bool:
        if zero.kind == "zero":
            return steps.same_optimizer(zero, step)
        if zero.kind == "reset":
            return zero.key == step.key  # the same expression zeroes and steps
        return zero.key is not None and steps.model_of_optimizer(step, zero.key)

    def _backward_before(self, ctx: FileContext, steps: GradSteps, fn: FunctionInfo,
                         stmt: ast.stmt, step: GradEvent) -> Optional[GradEvent]:
        cur: ast.stmt = stmt
        while True:
            located = _block_of(ctx, cur)
            if located is None:
                return None
            parent, block, index = located
            for earlier in reversed(block[:index]):
                inside = steps.inside(fn, earlier)
                backward, stepped = _kinds_in(earlier, inside, steps, step)
                if stepped:
                    return None
                if backward:
                    return next(e for e in inside if e.kind in ("backward", "helper-backward"))
            if isinstance(parent, _STOP) or not isinstance(parent, (ast.stmt, ast.excepthandler)):
                return None
            if isinstance(parent, ast.excepthandler):
                return None
            cur = parent  # the block runs whole: zero_grad and the step stay paired

    def _report(self, ctx: FileContext, zero: GradEvent, step: GradEvent,
                backward: GradEvent) -> Finding:
        call = zero.node
        to_none = isinstance(call, ast.Call) and any(
            k.arg == "set_to_none" and not (isinstance(k.value, ast.Constant) and k.value.value is False)
            for k in call.keywords)
        what = "no gradients at all and skips every parameter" if to_none else "all-zero gradients"
        zero_text = ast.unparse(call)
        message = (
            f"`{zero_text}` runs after the backward and before `{ast.unparse(step.node)}`: it "
            f"wipes the gradients the backward just computed, so the step sees {what} and the "
            f"model does not learn from this batch. Move `{zero_text}` before the backward or "
            f"after the step")
        evidence = [
            ctx.evidence(backward.node, "backward computes the gradients here"),
            ctx.evidence(call, "and they are cleared here"),
            ctx.evidence(step.node, "before the optimizer applies them"),
        ]
        return ctx.finding(self, call, message, evidence=evidence)
