"""PF643 clip-every-accumulated-backward: ``clip_grad_norm_`` after every backward while the optimizer
steps only on the last micro-batch of an accumulation window: the partial sums are clipped again and
again."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


def _window(test: ast.expr) -> Optional[ast.expr]:
    """The window ``n`` of ``x % n == 0`` / ``x % n != 0`` (also one operand of an ``or``/``and``);
    None for any other test or a literal window of 1."""
    if isinstance(test, ast.BoolOp):
        return next((w for w in (_window(v) for v in test.values) if w is not None), None)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        return None
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    if not (isinstance(right, ast.Constant) and right.value == 0 and isinstance(left, ast.BinOp)
            and isinstance(left.op, ast.Mod)):
        return None
    window = left.right
    if isinstance(window, ast.Constant) and not (isinstance(window.value, int) and window.value > 1):
        return None
    return window


def _window_guard(ctx: FileContext, node: ast.AST, loop: ast.AST) -> Optional[ast.If]:
    """The innermost ``if`` with a window test between ``node`` and ``loop``."""
    cur = ctx.parent(node)
    while cur is not None and cur is not loop:
        if isinstance(cur, ast.If) and _window(cur.test) is not None:
            return cur
        cur = ctx.parent(cur)
    return None


@register
class ClipEveryAccumulatedBackward(Rule):
    code = "PF643"
    needs_text = ("clip_grad_",)
    name = "clip-every-accumulated-backward"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "transformers")
    summary = ("`clip_grad_norm_` runs after every backward while the optimizer steps only when `step % n == 0`: "
               "the partially accumulated gradients are clipped again and again")
    explanation = """
## What it finds

In a training loop that accumulates gradients (the optimizer's `step()` sits under an
accumulation guard, `if (step + 1) % gradient_accumulation_steps == 0:`), a
`torch.nn.utils.clip_grad_norm_` (or `clip_grad_value_`) call placed after the backward but
outside that guard, so it runs on every micro-batch:

```python
loss.backward()
torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)   # PF643
if (step + 1) % gradient_accumulation_steps == 0:
    optimizer.step()
    optimizer.zero_grad()
```

## Why it matters

The `.grad` buffers hold a running sum during accumulation. Clipping it after each backward
clips the partial sums: with n micro-batches the update is `clip(...clip(clip(g1) + g2)... +
gn)`, so the early micro-batches are shrunk again and again and the last ones dominate,
instead of the accumulated gradient being clipped once (transformers issue 1563, fixed in
PR 1580 by moving the clip next to the step in every example script; GSM issue 22).

## How to fix it

Clip once per window, inside the accumulation guard, right before `optimizer.step()` (under
AMP, after `scaler.unscale_(optimizer)`).

## When preflight stays silent

* The clip is inside the accumulation guard (or under any `%` window test), or the loop
  does not accumulate (the step runs every batch).
* The window is the literal 1, or the step that the guard holds is not in the same loop.
* Accelerate's `accelerator.clip_grad_norm_` inside `accumulate` is PF452's concern, and an
  AMP `scaler.unscale_(optimizer)` before the clip on every micro-batch is PF604's (the second
  `unscale_` of a window raises before any clipping matters).
"""
    bad_examples = examples("preflight.rules.code._pf643_examples", "PF643_BAD")
    good_examples = examples("preflight.rules.code._pf643_examples", "PF643_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        clips = [e for e in steps.events if e.kind == "clip" and e.loop is not None]
        if not clips:
            return
        for clip in clips:
            loop = clip.loop
            assert loop is not None
            if _window_guard(ctx, clip.node, loop.node) is not None:
                continue
            events = list(steps.in_loop(loop))
            backward = [e for e in events if e.kind in ("backward", "helper-backward") and e.pos < clip.pos]
            if not backward:
                continue
            if any(e.kind == "unscale" and e.pos < clip.pos and _window_guard(ctx, e.node, loop.node) is None
                   for e in events):
                continue  # AMP: the unscale_ on every micro-batch is PF604's finding (it raises first)
            guarded = [(e, g) for e in events if e.kind == "step" and e.pos > clip.pos
                       for g in [_window_guard(ctx, e.node, loop.node)] if g is not None]
            if not guarded or any(e.kind == "step" and _window_guard(ctx, e.node, loop.node) is None
                                  for e in events):
                continue
            step, guard = guarded[0]
            window = _window(guard.test)
            n = ast.unparse(window) if window is not None else "n"
            yield ctx.finding(
                self, clip.node,
                f"`{ast.unparse(clip.node.func)}` runs after every backward, but `{ast.unparse(step.node)}` runs "  # type: ignore[attr-defined]
                f"only under `if {ast.unparse(guard.test)}:` (line {guard.lineno}): the gradients accumulated over "
                f"{n} micro-batches are clipped after each of them, so the early micro-batches are shrunk again and "
                "again and the update is not the clipped accumulated gradient. Clip once, inside the "
                "accumulation guard, right before the step",
                evidence=[ctx.evidence(backward[-1].node, "the backward adds to the accumulated gradients"),
                          ctx.evidence(step.node, "the optimizer steps once per window")])
