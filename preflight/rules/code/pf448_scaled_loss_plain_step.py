"""PF448 scaled-loss-plain-step: ``scaler.scale(loss).backward()`` followed by a plain ``optimizer.step()``;
the scaler never unscales or steps."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


@register
class ScaledLossPlainStep(Rule):
    code = "PF448"
    needs_text = ("GradScaler",)
    name = "scaled-loss-plain-step"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = ("`scaler.scale(loss).backward()` is followed by a plain `optimizer.step()`: the gradients "
               "stay multiplied by the loss scale")
    explanation = """
## What it finds

A `GradScaler` created in the file scales the loss (`scaler.scale(loss).backward()`)
inside a loop, the same loop steps the optimizer directly (`optimizer.step()`), and the
file never calls `scaler.step(...)` or `scaler.unscale_(...)` on that scaler.

## Why it matters

`scaler.scale(loss)` multiplies the loss, and so every gradient, by the loss scale
(65536 by default, `GradScaler(2 ** 10)` gives 1024). Only `scaler.step(optimizer)`
(or `scaler.unscale_(optimizer)`) divides the gradients back and skips the steps whose
gradients overflowed. Half of the recipe is effectively `(loss * scale).backward()`:
SGD-like optimizers step with a learning rate multiplied by the scale; Adam's update is
nearly scale-free, but its `eps` and L2 `weight_decay` are off by the same factor; and
inf/NaN steps are applied instead of skipped (nerfacc issue 307: "the gradients are now 1024x larger than they should be").

## How to fix it

Replace `optimizer.step()` with `scaler.step(optimizer)` followed by `scaler.update()`;
or, to step the optimizer yourself, call `scaler.unscale_(optimizer)` before it.

## When preflight stays silent

* The scaler steps or unscales anywhere in the file, or is handed to a function
  preflight cannot see.
* The scaler is created with `enabled=False`, or is not created from a `GradScaler`
  class in the file (a parameter, an attribute set elsewhere).
* The plain `optimizer.step()` is not in the loop that backpropagates the scaled loss.
"""
    bad_examples = examples("preflight.rules.code._pf448_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf448_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        if not steps.scalers:
            return
        used = {e.scaler for e in steps.events if e.kind in ("step", "unscale") and e.scaler}
        handed = {e.key for e in steps.events if e.kind == "opaque"}
        reported: set[str] = set()
        for back in steps.events:
            scaler = back.scaler
            if back.kind != "backward" or scaler is None or back.loop is None or scaler in reported:
                continue
            created = steps.scalers.get(scaler)
            if not isinstance(created, ast.Assign) or scaler in steps.disabled_scalers:
                continue
            if scaler in used or scaler in handed:
                continue
            plain = next((e for e in steps.in_loop(back.loop)
                          if e.kind == "step" and e.scaler is None and e.pos > back.pos), None)
            if plain is None:
                continue
            reported.add(scaler)
            built = plain.binding.node if plain.binding is not None else None
            adam = isinstance(built, ast.Call) and "Adam" in ast.unparse(built.func)
            effect = ("Adam's update is nearly scale-free, but its `eps` and `weight_decay` act on gradients "
                      "scale times too large, and" if adam else "every update is scale times too large, and")
            yield ctx.finding(
                self, plain.node,
                f"`{ast.unparse(plain.node)}` steps on gradients of `{scaler}.scale(loss)`, still multiplied by "
                f"the loss scale: `{scaler}` never unscales or steps, so {effect} overflowing (inf/NaN) steps are "
                f"applied instead of skipped. Use `{scaler}.step(...)` and `{scaler}.update()`, or call "
                f"`{scaler}.unscale_(...)` before this step",
                evidence=[ctx.evidence(created, f"`{scaler}` is a GradScaler"),
                          ctx.evidence(back.node, "the scaled loss is backpropagated here")])
