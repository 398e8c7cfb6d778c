"""PF604 unscale-every-micro-step: ``scaler.unscale_`` after every backward while ``scaler.step`` runs
only on the accumulation boundary."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules.base import Rule, examples

# names of an "is this the stepping iteration" flag (not of the window size: `if accum_steps > 1:`
# only says accumulation is on, and every micro-batch passes it)
_BOUNDARY_WORDS = ("boundary", "sync_gradients", "should_step", "do_step", "is_last", "last_accum", "step_now",
                   "update_now", "optimizer_step", "accumulation_done")


def _boundary_test(test: ast.expr) -> bool:
    """An ``if`` test that picks the optimizer-step iterations of an accumulation window:
    ``(i + 1) % accum == 0``, ``step % args.gradient_accumulation_steps == 0``, ``is_accumulation_boundary``
    (not ``accumulation_steps > 1``, which every micro-batch passes)."""
    for node in ast.walk(test):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            return True
        word = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if word is not None and any(w in word.lower() for w in _BOUNDARY_WORDS):
            return True
    return False


def _method_call(node: ast.AST, attr: str) -> Optional[ast.Call]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attr:
        return node
    return None


@register
class UnscaleEveryMicroStep(Rule):
    code = "PF604"
    needs_text = ("unscale_",)
    name = "unscale-every-micro-step"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("`scaler.unscale_(optimizer)` runs after every micro-batch while `scaler.step`/`update` run only "
               "on the accumulation boundary")
    explanation = """
## What it finds

A batch loop with gradient accumulation and a `GradScaler`: `scaler.scale(loss).backward()`
on every batch, `scaler.step(optimizer)` only under an accumulation test
(`if (idx + 1) % accumulation_steps == 0:`), and `scaler.unscale_(optimizer)` (usually
followed by `clip_grad_norm_`) outside that test, so it runs after every micro-batch.

## Why it matters

`GradScaler.unscale_` records that the optimizer's gradients are unscaled until the
next `update()`. The second micro-batch of a window calls it again before any
`update()` and PyTorch raises "RuntimeError: unscale_() has already been called on
this optimizer since the last update()" (torch/amp/grad_scaler.py, `unscale_`); the
run dies on its second batch whenever accumulation is above 1. Even if it did not,
unscaling a partial sum and then adding scaled gradients to it mixes scales, and the
clip would act on a partial, unsynchronised sum. Reported for Swin-Transformer's
SimMIM pre-training (microsoft/Swin-Transformer issue 311).

## How to fix it

Unscale and clip only on the iteration that steps:

```python
scaler.scale(loss).backward()
if (idx + 1) % accumulation_steps == 0:
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
```

## When preflight stays silent

* The `unscale_` is itself under a boundary test (`% accumulation_steps`, a flag named like
  `is_accumulation_boundary`; not `if accumulation_steps > 1:`), or in
  the same branch as the `step`.
* The `step` is unconditional in the loop (no accumulation), or conditional on something
  that is not an accumulation boundary (`if use_amp:`: a disabled scaler's `unscale_`
  does nothing).
* The loop runs no `backward()` outside the step's branch (nothing accumulates).
* Accelerate's own `clip_grad_norm_` inside `accumulate` is PF452's case.
"""
    bad_examples = examples("preflight.rules.code._pf604_examples", "PF604_BAD")
    good_examples = examples("preflight.rules.code._pf604_examples", "PF604_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for unscale in ctx.nodes(ast.Call):
            if _method_call(unscale, "unscale_") is None or len(unscale.args) != 1:
                continue
            assert isinstance(unscale.func, ast.Attribute)
            scaler = target_text(unscale.func.value)
            optimizer = ast.unparse(unscale.args[0])
            if scaler is None or "accelerator" in scaler:
                continue
            loop = ctx.enclosing(unscale, ast.For, ast.AsyncFor, ast.While)
            if loop is None or self._guarded(ctx, unscale, loop):
                continue
            step_if = self._boundary_step(ctx, loop, scaler, optimizer)
            if step_if is None or self._inside(ctx, unscale, step_if) or self._other_branch(ctx, unscale, step_if):
                continue
            if not self._backward_outside(ctx, loop, step_if):
                continue
            yield ctx.finding(
                self, unscale,
                f"`{scaler}.unscale_({optimizer})` runs after every micro-batch, but `{scaler}.step({optimizer})` "
                f"and `{scaler}.update()` only run on the accumulation boundary: the second micro-batch of a "
                "window unscales again before any update() and PyTorch raises \"unscale_() has already been "
                "called on this optimizer since the last update()\". Move the unscale_ (and the clip) into the "
                "branch that steps",
                evidence=[ctx.evidence(step_if, "the accumulation boundary that steps the scaler")])

    @staticmethod
    def _guarded(ctx: FileContext, node: ast.AST, loop: ast.AST) -> bool:
        cur: Optional[ast.AST] = ctx.parent(node)
        while cur is not None and cur is not loop:
            if isinstance(cur, ast.If) and _boundary_test(cur.test):
                return True
            cur = ctx.parent(cur)
        return False

    @staticmethod
    def _other_branch(ctx: FileContext, a: ast.AST, b: ast.AST) -> bool:
        """``a`` and ``b`` sit in different branches of one ``if`` (``if accum > 1: ... else: ...``):
        they never run in the same pass."""
        chain: list[ast.AST] = []
        cur: Optional[ast.AST] = a
        while cur is not None:
            chain.append(cur)
            cur = ctx.parent(cur)
        child: ast.AST = b
        cur = ctx.parent(b)
        while cur is not None and cur not in chain:
            child, cur = cur, ctx.parent(cur)
        if not isinstance(cur, (ast.If, ast.Try)):
            return False
        a_child = chain[chain.index(cur) - 1]

        def field_of(node: ast.AST) -> Optional[str]:
            for name in ("body", "orelse", "handlers", "finalbody"):
                if node in getattr(cur, name, ()):
                    return name
            return None
        return field_of(a_child) != field_of(child)

    @staticmethod
    def _inside(ctx: FileContext, node: ast.AST, outer: ast.AST) -> bool:
        cur: Optional[ast.AST] = node
        while cur is not None:
            if cur is outer:
                return True
            cur = ctx.parent(cur)
        return False

    @staticmethod
    def _boundary_step(ctx: FileContext, loop: ast.AST, scaler: str, optimizer: str) -> Optional[ast.If]:
        """The accumulation ``if`` of the loop that holds ``scaler.step(optimizer)``."""
        for node in ast.walk(loop):
            call = _method_call(node, "step")
            if call is None or len(call.args) != 1 or ast.unparse(call.args[0]) != optimizer:
                continue
            assert isinstance(call.func, ast.Attribute)
            if target_text(call.func.value) != scaler or ctx.enclosing(call, ast.For, ast.AsyncFor, ast.While) is not loop:
                continue
            cur: Optional[ast.AST] = ctx.parent(call)
            while cur is not None and cur is not loop:
                if isinstance(cur, ast.If) and _boundary_test(cur.test):
                    return cur
                cur = ctx.parent(cur)
        return None

    @classmethod
    def _backward_outside(cls, ctx: FileContext, loop: ast.AST, step_if: ast.If) -> bool:
        return any(_method_call(n, "backward") is not None and not cls._inside(ctx, n, step_if)
                   and ctx.enclosing(n, ast.For, ast.AsyncFor, ast.While) is loop
                   for n in ast.walk(loop))
