"""PF606 clip-in-training-step: ``clip_grad_norm_`` inside ``training_step`` under Lightning's automatic
optimization (before Lightning's own backward)."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.code._clipping import is_clip
from preflight.rules.code.pf404_optimizer_calls_in_training_step import automatic_training_steps


@register
class ClipInTrainingStep(Rule):
    code = "PF606"
    needs_text = ("clip_grad",)
    name = "clip-in-training-step"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`clip_grad_norm_` inside `training_step` of an automatic-optimization LightningModule: it runs "
               "before Lightning's backward")
    explanation = """
## What it finds

A `LightningModule` with automatic optimization (the default) whose `training_step`
calls `torch.nn.utils.clip_grad_norm_` (or `clip_grad_value_`) on its parameters.

## Why it matters

Under automatic optimization Lightning runs `training_step` inside the optimizer
closure, and only after it returns does it zero the gradients and call backward on the
loss (`lightning/pytorch/loops/optimization/automatic.py`, `Closure.closure`:
`step_output = self._step_fn()`, then `self._zero_grad_fn()`, then
`self._backward_fn(step_output.closure_loss)`). A clip inside `training_step` therefore
rescales the previous batch's gradients, which are zeroed right after: it does nothing,
the norm it returns (often logged) is the previous step's, and the gradients the
optimizer applies are never clipped.

## How to fix it

Let Lightning clip: `Trainer(gradient_clip_val=1.0)` (and `gradient_clip_algorithm`),
or override `configure_gradient_clipping` / clip in `on_before_optimizer_step`, which
run after backward and before the step. To log the gradient norm, compute it in
`on_before_optimizer_step` (`lightning.pytorch.utilities.grad_norm`).

## When preflight stays silent

* Manual optimization (`self.automatic_optimization = False`, in the class, a base of
  the file, or on an instance), where `training_step` runs its own backward before the clip.
* A base class from another module (it may switch to manual optimization).
* The clip is in another hook (`on_before_optimizer_step`, `configure_gradient_clipping`,
  `on_after_backward`) or is Lightning's `self.clip_gradients(...)` under manual optimization.
"""
    bad_examples = examples("preflight.rules.code._pf606_examples", "PF606_BAD")
    good_examples = examples("preflight.rules.code._pf606_examples", "PF606_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        scopes = scope_index(ctx)
        for fn in automatic_training_steps(ctx):
            for call in ast.walk(fn.node):
                if not is_clip(call) or scopes.function_of(call) is not fn:
                    continue
                assert isinstance(call, ast.Call)
                yield ctx.finding(
                    self, call,
                    f"`{ast.unparse(call.func)}` inside `training_step` of an automatic-optimization LightningModule: "
                    "Lightning zeroes the gradients and runs backward on the returned loss only after `training_step` "
                    "finishes, so this clips the previous batch's gradients and the gradients the optimizer applies "
                    "are never clipped. "
                    "Use `Trainer(gradient_clip_val=...)` or clip in `configure_gradient_clipping`",
                    evidence=[ctx.evidence(fn.node, "`training_step` under automatic optimization")])
                break
