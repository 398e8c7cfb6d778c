"""PF425 gradients-unscaled-twice: the same gradients unscaled twice in one step."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import (
    accelerator_calls,
    accelerator_names,
    is_accelerator_receiver,
    target_text,
)
from preflight.rules.base import Rule, examples


@register
class GradientsUnscaledTwice(Rule):
    code = "PF425"
    needs_text = ('unscale_',)
    name = "gradients-unscaled-twice"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    summary = "A step unscales the same fp16 gradients twice (wrapper optimizer, or unscale before Accelerate's clip)"
    explanation = """
## What it finds

* `scaler.unscale_(opt.optimizer)` followed by `scaler.step(opt)` in the same
  loop: the scaler records the inner optimizer as unscaled, `step(opt)` looks up
  the wrapper, finds it not unscaled and divides its gradients (the same
  tensors) by the scale again.
* `accelerator.unscale_gradients(...)` (or `accelerator.scaler.unscale_(optimizer)`)
  followed by `accelerator.clip_grad_norm_`
  / `clip_grad_value_` in the same loop: Accelerate's clip unscales itself.

## Why it matters

Gradients divided by the loss scale twice are about 65,536 times too small: the
model silently stops learning (accelerate issue 113, fixed in Accelerate for
its own wrapper), or PyTorch raises "unscale_() has already been called on this
optimizer since the last update()" (LaWGPT issue 124).

## How to fix it

Unscale and step the same object; with Accelerate, call `clip_grad_norm_` alone.

## When preflight stays silent

* `unscale_` and `step` receive the same expression; no Accelerate clip after an
  explicit `unscale_gradients`.
"""
    bad_examples = examples("preflight.rules.code._pf425_examples", "PF425_BAD")
    good_examples = examples("preflight.rules.code._pf425_examples", "PF425_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        # a finding needs a `scaler.unscale_(x)` call: without one, no loop is walked
        any_unscale = any(isinstance(c.func, ast.Attribute) and c.func.attr == "unscale_" and len(c.args) == 1
                          for c in ctx.nodes(ast.Call))
        for loop in ctx.nodes(ast.For, ast.While) if any_unscale else ():
            unscales = {}
            steps = []
            for node in ast.walk(loop):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and len(node.args) == 1):
                    continue
                arg = target_text(node.args[0]) if not isinstance(node.args[0], ast.Attribute) or \
                    isinstance(node.args[0].value, ast.Name) else ast.unparse(node.args[0])
                if arg is None:
                    continue
                scaler = target_text(node.func.value)
                if node.func.attr == "unscale_":
                    unscales[(scaler, arg)] = node
                elif node.func.attr == "step":
                    steps.append((scaler, arg, node))
            for scaler, arg, step in steps:
                for (s2, inner), unscale in unscales.items():
                    if s2 == scaler and inner != arg and inner.startswith(arg + ".") and unscale.lineno < step.lineno:
                        yield ctx.finding(
                            self, step,
                            f"`{scaler}.unscale_({inner})` then `{scaler}.step({arg})`: the scaler tracks optimizers "
                            f"by object, so `step` finds `{arg}` not yet unscaled and divides the same gradients by "
                            f"the scale again. Unscale and step the same object (`{scaler}.step({inner})`)",
                            evidence=[ctx.evidence(unscale, "first unscale")])
        names = accelerator_names(ctx)
        unscale_calls = accelerator_calls(ctx, "unscale_gradients") + [  # or its scaler by hand
            c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == "unscale_"
            and isinstance(c.func.value, ast.Attribute) and c.func.value.attr == "scaler"
            and is_accelerator_receiver(c.func.value.value, names)]
        if not unscale_calls:
            return
        clips = accelerator_calls(ctx, "clip_grad_norm_") + accelerator_calls(ctx, "clip_grad_value_")
        for unscale in unscale_calls:
            around = ctx.enclosing(unscale, ast.For, ast.While)
            for clip in clips:
                if clip.lineno > unscale.lineno and ctx.enclosing(clip, ast.For, ast.While) is around:
                    yield ctx.finding(
                        self, clip,
                        "`accelerator.clip_grad_norm_` unscales the gradients itself, and "
                        "`accelerator.unscale_gradients()` already did in this step: PyTorch raises \"unscale_() has "
                        "already been called on this optimizer since the last update()\" (or the gradients are divided "
                        "twice). Drop the explicit `unscale_gradients()`",
                        evidence=[ctx.evidence(unscale, "first unscale")])
                    break
