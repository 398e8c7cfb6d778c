"""PF457 zero-grad-every-micro-batch: ``zero_grad()`` on every pass of a loop whose step is gated."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import GradEvent, GradSteps, grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import accelerators, kwarg, literal
from preflight.rules.base import Rule, examples

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_ACCUM_NAME = re.compile(r"accum|update_freq|iters?_per_update", re.I)
_BACKWARD = ("backward", "helper-backward")


def _accumulation_test(test: ast.expr) -> bool:
    """An ``if`` test that gates a step on accumulation: ``(i + 1) % n == 0``, a counter named
    ``accumulated_samples >= 128``, ``step % args.gradient_accumulation_steps``."""
    for node in ast.walk(test):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            return True
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        if name and _ACCUM_NAME.search(name) and name != "sync_gradients":
            return True
    return False


def _accumulate_context(ctx: FileContext, node: ast.AST, loop: Optional[ast.AST]) -> bool:
    """Inside ``with accelerator.accumulate(model):`` (or Fabric's ``no_backward_sync``) below the
    loop: the prepared optimizer's ``zero_grad`` only zeroes on a sync step there."""
    cur = ctx.parent(node)
    while cur is not None and cur is not loop:
        if isinstance(cur, (ast.With, ast.AsyncWith)):
            for item in cur.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                        and call.func.attr in ("accumulate", "no_backward_sync", "no_sync"):
                    return True
        cur = ctx.parent(cur)
    return False


def _is_accumulate(node: ast.AST) -> bool:
    return isinstance(node, (ast.With, ast.AsyncWith)) and any(
        isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Attribute)
        and i.context_expr.func.attr == "accumulate" for i in node.items)


def _accumulates(ctx: FileContext, ctor: ast.Call) -> bool:
    """``Accelerator(gradient_accumulation_steps=n)`` with n not a written 1 (an argparse value counts
    even when its default is 1: the command line sets it), or a ``GradientAccumulationPlugin``."""
    if kwarg(ctor, "gradient_accumulation_plugin") is not None:
        return True
    steps = kwarg(ctor, "gradient_accumulation_steps")
    if steps is None:
        return False
    if isinstance(steps, ast.Constant):
        return not (isinstance(steps.value, int) and steps.value <= 1)
    value = literal(ctx, steps) if isinstance(steps, ast.Name) else None
    return not (isinstance(value, int) and value <= 1)  # a module constant GA = 1 stays silent


@register
class ZeroGradEveryMicroBatch(Rule):
    code = "PF457"
    needs_text = ("zero_grad",)
    name = "zero-grad-every-micro-batch"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = "`zero_grad()` runs on every micro-batch while `step()` waits for an accumulation window"
    frameworks = ("pytorch", "accelerate", "fabric")
    explanation = """
## What it finds

A training loop that clears the gradients at the top of every pass and steps the
optimizer only when an accumulation condition holds:

```python
for i, batch in enumerate(loader):
    optimizer.zero_grad()
    loss = model(batch) / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
```

## Why it matters

`zero_grad()` on the next pass wipes the gradients the earlier micro-batches left for
the step, so every step applies the last micro-batch's gradients alone (divided by
the window, if the loss is): the effective batch is one micro-batch and the learning
rate is `accumulation_steps` times too small. Nothing fails and the loss still goes
down, slowly (accelerate issue 1299, openWakeWord issue 316, opacus issue 93,
torchtitan PR 3575).

Under `with accelerator.accumulate(model):` the same reset is wrong in another
way: `optimizer.zero_grad()` at the top of the block, before the backward. The
prepared optimizer's `zero_grad` does nothing on accumulating micro-batches but runs
on the sync micro-batch (`AcceleratedOptimizer.zero_grad` checks
`gradient_state.sync_gradients`, which `accumulate` sets on entry), i.e. right
before the window's last backward: the earlier micro-batches' gradients are erased
and each update uses one micro-batch (held-out-17, LongCat-Image's LoRA example).
This is reported when an `Accelerator(...)` of the file is built with
`gradient_accumulation_steps` (not a written `1`) or a `GradientAccumulationPlugin`.

## How to fix it

Clear the gradients after the step, inside the same condition:

```python
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
```

or let Accelerate do the accumulation (`with accelerator.accumulate(model):`, where
the prepared optimizer's `zero_grad()` only clears on a sync step; call it after
`optimizer.step()`, not before the backward).

## When preflight stays silent

* `zero_grad()` is itself under a condition, or after the step in the same condition.
* The loop body runs under `accelerator.accumulate(...)` / `no_sync()`, with the
  reset after the backward (the usual `optimizer.step(); optimizer.zero_grad()`), under
  a condition, or with an `Accelerator` that does not accumulate (no
  `gradient_accumulation_steps`, or a written `1`), or built in another file.
* The step's condition does not look like accumulation (no `%`, no name like
  `accumulation`): a step skipped for a non-finite loss is not accumulation.
* `zero_grad()` clears another optimizer than the one that steps.
"""
    bad_examples = examples("preflight.rules.code._pf457_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf457_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        for zero in steps.events:
            if zero.kind not in ("zero", "zero-model", "reset") or zero.key is None:
                continue
            found = self._check(ctx, steps, zero)
            if found is not None:
                yield found

    def _check(self, ctx: FileContext, steps: GradSteps, zero: GradEvent) -> Optional[Finding]:
        stmt = ctx.parent(zero.node)
        if not isinstance(stmt, ast.Expr):
            return None
        body_owner = ctx.parent(stmt)
        if isinstance(body_owner, (ast.With, ast.AsyncWith)) and _accumulate_context(ctx, zero.node, None):
            return self._top_of_accumulate(ctx, steps, zero, stmt)
        loop = ctx.parent(body_owner) if isinstance(body_owner, (ast.With, ast.AsyncWith)) else body_owner
        block = getattr(body_owner, "body", None)
        if not isinstance(loop, _LOOPS) or not isinstance(block, list) or stmt not in block:
            return None
        if _accumulate_context(ctx, zero.node, loop):
            return self._top_of_accumulate(ctx, steps, zero, stmt)
        fn = zero.function
        backward: Optional[GradEvent] = None
        for later in block[block.index(stmt) + 1:]:
            inside = steps.inside(fn, later)
            if isinstance(later, ast.If):
                gated = next((e for e in inside if e.kind == "step" and self._clears(steps, zero, e)), None)
                if gated is not None:
                    if backward is None or not _accumulation_test(later.test):
                        return None
                    return self._report(ctx, zero, gated, backward, later)
                if any(e.kind in _BACKWARD for e in inside):
                    return None  # a conditional backward: not proved to run before the step
                continue
            if any(e.kind == "step" and self._clears(steps, zero, e) for e in inside):
                return None  # an unconditional step in the same pass: no accumulation
            backward = backward or next((e for e in inside if e.kind in _BACKWARD), None)
        return None

    def _top_of_accumulate(self, ctx: FileContext, steps: GradSteps, zero: GradEvent,
                           stmt: ast.stmt) -> Optional[Finding]:
        """``zero_grad()`` before the backward inside ``with accelerator.accumulate(model):``. The
        prepared optimizer skips ``zero_grad`` on accumulating micro-batches but runs it on the sync
        micro-batch, at the top of the block: right before the last backward, so it erases the window's
        earlier gradients and every update uses one micro-batch. Only with an ``Accelerator(...)`` of
        the file built with ``gradient_accumulation_steps`` other than 1 (or a plugin): with the
        default 1 every micro-batch syncs and nothing is lost."""
        ctors = accelerators(ctx)
        if not ctors or not any(_accumulates(ctx, c) for c in ctors):
            return None
        fn = zero.function
        cur: ast.AST = stmt
        while True:
            owner = ctx.parent(cur)
            if not isinstance(owner, (ast.With, ast.AsyncWith)) or cur not in owner.body:
                return None  # under an if/try/loop inside the block: not proved to run every pass
            for later in owner.body[owner.body.index(cur) + 1:]:
                inside = steps.inside(fn, later)
                if any(e.kind in ("step", "opaque", "reset", "zero", "zero-model", "unscale") for e in inside):
                    return None
                if isinstance(later, (ast.If, ast.Try, ast.For, ast.While, ast.AsyncFor)):
                    if any(e.kind in _BACKWARD for e in inside):
                        return None  # a conditional backward
                    continue
                backward = next((e for e in inside if e.kind in _BACKWARD), None)
                if backward is not None:
                    return self._report_accumulate(ctx, zero, backward, owner if _is_accumulate(owner) else None)
            if _is_accumulate(owner):
                return None
            cur = owner

    def _report_accumulate(self, ctx: FileContext, zero: GradEvent, backward: GradEvent,
                           block: Optional[ast.AST]) -> Finding:
        zero_text = ast.unparse(zero.node)
        message = (
            f"`{zero_text}` runs before the backward inside `accelerator.accumulate(...)`: the prepared "
            "optimizer skips it on accumulating micro-batches but runs it on the sync micro-batch, right "
            "before the last backward, so the gradients of the window's earlier micro-batches are erased and "
            f"every update uses one micro-batch (gradient_accumulation_steps does nothing). Call `{zero_text}` "
            "after `optimizer.step()`")
        evidence = [ctx.evidence(backward.node, "the last micro-batch's backward runs after the reset")]
        if block is not None:
            evidence.insert(0, ctx.evidence(block, "Accelerate's accumulation window"))
        return ctx.finding(self, zero.node, message, evidence=evidence)

    @staticmethod
    def _clears(steps: GradSteps, zero: GradEvent, step: GradEvent) -> bool:
        if zero.kind == "zero":
            return steps.same_optimizer(zero, step)
        if zero.kind == "reset" and zero.key == step.key:
            return True  # the same expression zeroes and steps
        return zero.key is not None and steps.model_of_optimizer(step, zero.key)

    def _report(self, ctx: FileContext, zero: GradEvent, step: GradEvent, backward: GradEvent,
                gate: ast.If) -> Finding:
        zero_text = ast.unparse(zero.node)
        condition = ast.unparse(gate.test)
        if len(condition) > 60:
            condition = condition[:57] + "..."
        message = (
            f"`{zero_text}` runs on every micro-batch, but `{ast.unparse(step.node)}` only when `{condition}`: "
            "each pass wipes the gradients the earlier micro-batches accumulated, so every step applies the "
            "last micro-batch's gradients alone (the accumulation does nothing, and a loss divided by the window "
            f"makes the step that many times too small). Move `{zero_text}` into the `if`, after the step")
        evidence = [
            ctx.evidence(backward.node, "gradients accumulate here on every micro-batch"),
            ctx.evidence(step.node, f"the step runs only when `{condition}`"),
        ]
        return ctx.finding(self, zero.node, message, evidence=evidence)
