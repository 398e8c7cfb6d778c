"""PF106 scaler-step-without-update: GradScaler.step() with no GradScaler.update()."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


@register
class ScalerStepWithoutUpdate(Rule):
    code = "PF106"
    name = "scaler-step-without-update"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = "GradScaler.step() is called in a loop but GradScaler.update() never is"
    frameworks = ("pytorch",)
    explanation = """
## What it finds

A `torch.amp.GradScaler` (or `torch.cuda.amp.GradScaler`) steps an optimizer inside
a loop with `scaler.step(optimizer)`, and the file never calls `scaler.update()`.

## Why it matters

`update()` closes each iteration of the scaler: it adjusts the scale (lowers it after
inf/NaN gradients, raises it after a run of good steps) and resets the per-optimizer
state. Without it the second `scaler.step(optimizer)` raises `RuntimeError: step()
has already been called since the last update()`: the job dies on its second
iteration, after the data, model and compile warm-up have already been paid for. Where
the error is avoided (a new optimizer each time) the scale never adapts, so a single
overflow makes every later step skip silently.

## How to fix it

Call `scaler.update()` once per iteration, right after `scaler.step(optimizer)`
(after the last `scaler.step` when several optimizers share one scaler).

## When preflight stays silent

* `update()` is called on the same scaler anywhere in the file (another method, a
  helper), or the scaler is handed to a function preflight cannot see.
* The scaler is created with `enabled=False` (its `step` is a plain `optimizer.step()`).
* The object is not a scaler: preflight requires the receiver to be created from a
  `GradScaler` class in the file or to scale a loss (`scaler.scale(loss).backward()`).
* `scaler.step` is not inside a loop.
"""
    bad_examples = examples("preflight.rules.code._pf106_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf106_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        updated = {e.scaler for e in steps.events if e.kind == "update"}
        handed = {e.key for e in steps.events if e.kind == "opaque"}
        reported: set[str] = set()
        for step in steps.events:
            scaler = step.scaler
            if step.kind != "step" or scaler is None or step.loop is None:
                continue
            if scaler not in steps.scalers or scaler in steps.disabled_scalers:
                continue
            if scaler in updated or scaler in handed or scaler in reported:
                continue
            reported.add(scaler)
            created = steps.scalers[scaler]
            message = (
                f"`{ast.unparse(step.node)}` runs every iteration but `{scaler}.update()` is "
                f"never called: the second `{scaler}.step()` raises `RuntimeError: step() has "
                f"already been called since the last update()`, and the loss scale never "
                f"adapts. Call `{scaler}.update()` right after `{ast.unparse(step.node)}`")
            evidence = [
                ctx.evidence(created, f"`{scaler}` is a GradScaler"),
                ctx.evidence(step.loop.node, "the loop that steps through the scaler"),
                ctx.evidence(step.node, f"no `{scaler}.update()` follows this step anywhere "
                                        "in the file"),
            ]
            yield ctx.finding(self, step.node, message, evidence=evidence)
