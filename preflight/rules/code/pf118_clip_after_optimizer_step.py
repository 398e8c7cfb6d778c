"""PF118 clip-after-optimizer-step: gradients clipped after the optimizer has already stepped."""

from __future__ import annotations

from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf117_support import runs_after


@register
class ClipAfterOptimizerStep(Rule):
    code = "PF118"
    name = "clip-after-optimizer-step"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = "clip_grad_norm_/clip_grad_value_ runs after optimizer.step(): the update used unclipped gradients"
    frameworks = ("pytorch",)
    needs_text = ("clip_grad",)
    explanation = """
## What it finds

In one pass of a training loop, `optimizer.step()` (or `scaler.step(optimizer)`) runs
unconditionally, and after it `torch.nn.utils.clip_grad_norm_` (or `clip_grad_value_`)
clips the gradients, with no `backward()` between the step and the clip and no other
optimizer step after the clip before the next `backward()`.

## Why it matters

`clip_grad_norm_` rescales the `.grad` tensors in place; only an optimizer step that runs
after it sees the clipped values. Here the step has already used the unclipped
gradients, and the next iteration's `zero_grad()` (or the next `backward()`) discards
the clipped ones: the clipping never takes effect, and a run that relies on it to stay
stable (RNNs, transformers with a high learning rate) can diverge with no sign in the
code that the safeguard is inert. Reported in jongwook/onsets-and-frames#24 ("you have
the gradient clipping after the .backward() and .step() operations"; the author:
"Yeah it definitely should" go in between).

## How to fix it

Move the clip between `loss.backward()` and `optimizer.step()` (under AMP, after
`scaler.unscale_(optimizer)`).

## When preflight stays silent

* A `backward()` runs between the step and the clip (the clip belongs to the next
  step), or another optimizer step follows the clip before the next `backward()` (a GAN
  that clips the generator after stepping the discriminator).
* The step sits under an `if` the clip is not under (gradient accumulation, where most
  iterations clip without stepping), or the two sit in exclusive branches.
"""
    bad_examples = examples("preflight.rules.code._pf118_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf118_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        for events in steps.by_function.values():
            clips = [e for e in events if e.kind == "clip" and e.loop is not None]
            if not clips:
                continue
            ordered = sorted(events, key=lambda e: (getattr(e.node, "lineno", 0), getattr(e.node, "col_offset", 0)))
            for clip in clips:
                loop = clip.loop.node  # type: ignore[union-attr]
                at = ordered.index(clip)
                before = None
                for earlier in reversed(ordered[:at]):
                    if not ctx.under(earlier.node, loop):
                        break
                    if earlier.kind in ("backward", "grad", "step"):
                        before = earlier
                        break
                if before is None or before.kind != "step":
                    continue
                after = None
                for later in ordered[at + 1:]:
                    if not ctx.under(later.node, loop):
                        break
                    if later.kind in ("backward", "grad", "step"):
                        after = later
                        break
                if after is not None and after.kind == "step":
                    continue
                if not runs_after(ctx, before.node, clip.node, first_may_be_conditional=False,
                                  second_may_be_conditional=True):
                    continue
                stepped = f"{before.scaler}.step({before.key})" if before.scaler else f"{before.key}.step()"
                message = (
                    f"gradients are clipped after `{stepped}` in the same iteration: the step has "
                    f"already used the unclipped gradients, and the clipped ones are discarded "
                    f"before the next step. Move the clip between `backward()` and `{stepped}`")
                evidence = [ctx.evidence(before.node, f"`{stepped}` runs first, on unclipped gradients")]
                yield ctx.finding(self, clip.node, message, evidence=evidence)
