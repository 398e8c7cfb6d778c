"""PF107 clip-before-unscale: gradients clipped while still multiplied by the loss scale."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import GradEvent, GradSteps, grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_names,
    accelerators,
    is_accelerator_receiver,
    kwarg,
    literal,
)
from preflight.rules.base import Rule, examples

_BETWEEN_SILENCES = frozenset({"unscale", "opaque", "backward", "helper-backward"})


@register
class ClipBeforeUnscale(Rule):
    code = "PF107"
    name = "clip-before-unscale"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = "Gradients are clipped before GradScaler.unscale_(), while still scaled"
    frameworks = ("pytorch",)
    explanation = """
## What it finds

`scaler.scale(loss).backward()` followed by `torch.nn.utils.clip_grad_norm_(...)` (or
`clip_grad_value_`) and then `scaler.step(optimizer)`, with no
`scaler.unscale_(optimizer)` between the backward and the clip.

## Why it matters

After `scaler.scale(loss).backward()` every gradient is multiplied by the loss scale
(65536 at the start, adapted later). Clipping those gradients to `max_norm=1.0` really
clips the true gradients to `1.0 / scale`: nearly every step is cut down by orders of
magnitude, and by a factor that changes whenever the scaler adapts. `scaler.step`
unscales afterwards, but the damage is done. Training crawls or stalls without an
error.

## How to fix it

Unscale first, as in the PyTorch AMP examples:

```python
scaler.scale(loss).backward()
scaler.unscale_(optimizer)
torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
scaler.step(optimizer)
scaler.update()
```

## When preflight stays silent

* `scaler.unscale_(...)` (or a helper preflight cannot see that receives the scaler or
  the optimizer) runs between the backward and the clip.
* The backward is not scaled (`loss.backward()`), or the scaler is created with
  `enabled=False`.
* The clip is not followed by `scaler.step(...)` in the same function.
* Framework clipping (`accelerator.clip_grad_norm_`, Lightning's
  `gradient_clip_val`, `fabric.clip_gradients`) unscales by itself and is not checked.

The implicit scaler of Accelerate is checked too: `accelerator.backward(loss)` with
`Accelerator(mixed_precision="fp16")` (a literal, or an argparse default) scales the
loss, and torch's `clip_grad_norm_` before the prepared `optimizer.step()` clips the
scaled gradients (TRL PR 595), unless `accelerator.unscale_gradients()` runs in the
same function. Precision given only on the launch line or in an accelerate config
is not seen here.
"""
    bad_examples = examples("preflight.rules.code._pf107_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf107_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        for clip in steps.events:
            if clip.kind != "clip":
                continue
            found = self._check(ctx, steps, clip)
            if found is not None:
                yield found

    def _check(self, ctx: FileContext, steps: GradSteps, clip: GradEvent) -> Optional[Finding]:
        events = steps.of(clip.function)
        index = events.index(clip)
        backward: Optional[GradEvent] = None
        for e in reversed(events[:index]):
            if e.kind in ("unscale", "opaque", "helper-backward", "grad"):
                return None
            if e.kind == "step":
                return None  # the clip belongs to the next iteration's order
            if e.kind == "backward":
                backward = e
                break
        if backward is None:
            return None
        if backward.scaler is None:
            return self._accelerate(ctx, steps, clip, backward, events[index + 1:])
        scaler = backward.scaler
        if scaler in steps.disabled_scalers:
            return None
        if clip.loop is not None and not backward.in_loop(clip.loop):
            return None  # the backward belongs to another loop (accumulation loops nest)
        step: Optional[GradEvent] = None
        for e in events[index + 1:]:
            if e.kind in _BETWEEN_SILENCES:
                return None
            if e.kind == "step":
                step = e
                break
        if step is None or step.scaler != scaler:
            return None
        clip_text = ast.unparse(clip.node.func)  # type: ignore[attr-defined]
        message = (
            f"`{clip_text}(...)` clips gradients that `{scaler}.scale(...)` multiplied by the "
            f"loss scale: no `{scaler}.unscale_({step.key})` runs first, so the true gradients "
            f"are clipped to max_norm / scale (about 65536 times too small at the start) and "
            f"training crawls. Call `{scaler}.unscale_({step.key})` before clipping")
        evidence = [
            ctx.evidence(backward.node, "gradients are computed multiplied by the loss scale"),
            ctx.evidence(clip.node, "clipped while still scaled"),
            ctx.evidence(step.node, f"`{scaler}.step` unscales only now"),
        ]
        return ctx.finding(self, clip.node, message, evidence=evidence)

    def _accelerate(self, ctx: FileContext, steps: GradSteps, clip: GradEvent, backward: GradEvent,
                    after: list[GradEvent]) -> Optional[Finding]:
        """``accelerator.backward(loss)`` under ``Accelerator(mixed_precision="fp16")`` scales the loss
        with Accelerate's own GradScaler; torch's clip after it sees scaled gradients (the prepared
        optimizer's ``step`` unscales only then). ``accelerator.clip_grad_norm_`` unscales first."""
        call = backward.node
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "backward"
                and is_accelerator_receiver(call.func.value, accelerator_names(ctx))):
            return None
        clip_call = clip.node
        if not isinstance(clip_call, ast.Call) or not isinstance(clip_call.func, ast.Attribute) \
                or is_accelerator_receiver(clip_call.func.value, accelerator_names(ctx)):
            return None  # accelerator.clip_grad_norm_ unscales by itself
        fp16 = [c for c in accelerators(ctx) if literal(ctx, kwarg(c, "mixed_precision")) == "fp16"]
        if not fp16:
            return None
        if any(isinstance(n, ast.Attribute) and n.attr == "unscale_gradients"
               for n in ast.walk(clip.function.node)):
            return None
        step = next((e for e in after if e.kind in _BETWEEN_SILENCES | {"step"}), None)
        if step is None or step.kind != "step":
            return None
        clip_text = ast.unparse(clip_call.func)
        receiver = ast.unparse(call.func.value)
        message = (
            f"`{clip_text}(...)` clips gradients that `{receiver}.backward` multiplied by the loss scale: "
            "the Accelerator runs fp16 mixed precision, whose GradScaler unscales only inside the prepared "
            "optimizer's `step`, so the true gradients are clipped to max_norm / scale (about 65536 times "
            f"too small at the start). Use `{receiver}.clip_grad_norm_(...)`, which unscales first")
        evidence = [
            ctx.evidence(fp16[0], "fp16 mixed precision: Accelerate scales the loss"),
            ctx.evidence(call, "gradients are computed multiplied by the loss scale"),
            ctx.evidence(step.node, "the prepared optimizer unscales only now"),
        ]
        return ctx.finding(self, clip_call, message, evidence=evidence)
