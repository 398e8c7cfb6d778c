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
            return self._in_helper(ctx, steps, clip, events, index)
        if backward.scaler is None:
            return self._accelerate(ctx, steps, clip, backward, events[index + 1:])
        if clip.loop is not None and not backward.in_loop(clip.loop):
            return None  # the backward belongs to another loop (accumulation loops nest)
        return self._scaled(ctx, clip, backward, events[index + 1:])

    def _in_helper(self, ctx: FileContext, steps: GradSteps, clip: GradEvent, events: list[GradEvent],
                   index: int) -> Optional[Finding]:
        """The clip sits in a local helper that does nothing else to the gradients (espnet's
        ``apply_gradient_clipping``), called between the scaled backward and ``scaler.step`` of its
        caller: the same order, one call level up. The finding stays on the clip."""
        if any(e.kind != "clip" for e in events):
            return None  # the helper steps, unscales or differentiates itself
        for site in clip.function.call_sites:
            if site.constructor:
                continue
            caller = steps.of(site.caller)
            at = (getattr(site.call, "lineno", 0), getattr(site.call, "col_offset", 0))
            before = [e for e in caller if e.pos < at]
            after = [e for e in caller if e.pos > at]
            backward: Optional[GradEvent] = None
            for e in reversed(before):
                if e.kind in ("unscale", "opaque", "helper-backward", "grad", "step", "clip"):
                    break
                if e.kind == "backward":
                    backward = e
                    break
            if backward is None or backward.scaler is None:
                continue
            site_loop = steps.scopes.loop_of(site.call)
            if site_loop is not None and not backward.in_loop(site_loop):
                continue
            found = self._scaled(ctx, clip, backward, after, via=site.call)
            if found is not None:
                return found
        return None

    def _scaled(self, ctx: FileContext, clip: GradEvent, backward: GradEvent, after: list[GradEvent],
                via: Optional[ast.Call] = None) -> Optional[Finding]:
        steps = grad_steps(ctx)
        scaler = backward.scaler
        if scaler is None or scaler in steps.disabled_scalers:
            return None
        step: Optional[GradEvent] = None
        for e in after:
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
        if via is not None:
            evidence.insert(1, ctx.evidence(via, "this call runs the clipping helper after the backward"))
            message = message.replace(
                "clips gradients that",
                f"in `{getattr(clip.function.node, 'name', 'the helper')}` (called at line {via.lineno}, after "
                "the backward) clips gradients that", 1)
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
