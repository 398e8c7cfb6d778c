"""PF107 clip-before-unscale: gradients clipped while still multiplied by the loss scale."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import GradEvent, GradSteps, grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
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
        if backward is None or backward.scaler is None:
            return None
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
