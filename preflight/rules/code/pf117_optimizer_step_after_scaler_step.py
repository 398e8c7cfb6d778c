"""PF117 optimizer-step-after-scaler-step: ``optimizer.step()`` again after ``scaler.step(optimizer)``."""

from __future__ import annotations

from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._pf117_support import runs_after


@register
class OptimizerStepAfterScalerStep(Rule):
    code = "PF117"
    name = "optimizer-step-after-scaler-step"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = "an optimizer is stepped directly after GradScaler.step() already stepped it"
    frameworks = ("pytorch",)
    needs_text = ("GradScaler",)
    explanation = """
## What it finds

In one pass of a training loop, `scaler.step(optimizer)` is followed by a plain
`optimizer.step()` on the same optimizer, with no `backward()` between the two, and the
plain call runs unconditionally after the scaler's (not in an `else:` branch, not under
an `if` of its own).

## Why it matters

`GradScaler.step(optimizer)` unscales the gradients, skips the update when they hold
inf/NaN, and otherwise calls `optimizer.step()` itself (torch/amp/grad_scaler.py,
`_maybe_opt_step`). A second, direct `optimizer.step()` applies every update twice, the
second time with no inf/NaN check: the steps the scaler skipped for overflow are applied
anyway, and momentum-based optimizers take two steps per batch. The PyTorch AMP docs:
"scaler.step() first unscales the gradients ... If no inf/NaN gradients are found,
invokes optimizer.step()". Reported in RVC/Applio's GAN training (IAHispano/Applio#860:
NaNs in the generator's and discriminator's gradients).

## How to fix it

Remove the direct `optimizer.step()`: `scaler.step(optimizer)` followed by
`scaler.update()` is the whole step.

## When preflight stays silent

* The direct step is in the other branch of an `if`/`else` (the usual `if scaler: ...
  else: optimizer.step()`), or under an `if` of its own (a path for when AMP is off).
* The optimizer's gradients are zeroed between the two steps (a second phase with a
  fresh backward).
* The two calls step different optimizers.
"""
    bad_examples = examples("preflight.rules.code._pf117_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf117_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        for events in steps.by_function.values():
            scaled = [e for e in events if e.kind == "step" and e.scaler is not None and e.loop is not None]
            if not scaled:
                continue
            ordered = sorted(events, key=lambda e: (e.node.lineno, e.node.col_offset))  # type: ignore[attr-defined]
            for first in scaled:
                loop = first.loop.node  # type: ignore[union-attr]
                start = ordered.index(first)
                for later in ordered[start + 1:]:
                    if steps.resets(later, first) or not ctx.under(later.node, loop):
                        break
                    if later.kind != "step" or later.scaler is not None:
                        continue
                    if not steps.same_optimizer(first, later):
                        continue
                    if not runs_after(ctx, first.node, later.node, first_may_be_conditional=True,
                                      second_may_be_conditional=False):
                        continue
                    key = later.key or "optimizer"
                    message = (
                        f"`{key}.step()` runs after `{first.scaler}.step({key})` in the same "
                        f"iteration with no `{key}.zero_grad()` between: the scaler already stepped `{key}` "
                        f"(or skipped the step for inf/NaN gradients), so every update is applied "
                        f"twice and the overflow check is bypassed. Remove `{key}.step()`")
                    evidence = [ctx.evidence(first.node, f"`{first.scaler}.step({key})` calls "
                                                         f"`{key}.step()` itself")]
                    yield ctx.finding(self, later.node, message, evidence=evidence)
