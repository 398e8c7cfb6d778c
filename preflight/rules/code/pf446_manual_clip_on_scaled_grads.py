"""PF446 manual-clip-on-scaled-grads: ``clip_grad_norm_`` / ``self.clip_gradients`` after ``manual_backward`` under
Lightning fp16 mixed precision."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import (
    FP16_PRECISIONS,
    call_last,
    const_str,
    manual_optimization,
)
from preflight.rules.base import Rule, examples

# ``self.clip_gradients`` unscales nothing either: it goes to the precision plugin's ``clip_gradients``, which calls
# ``clip_grad_norm_`` directly; the scaler unscales only in ``optimizer_step`` (Lightning 2.0.5 and master,
# ``core/module.py``, ``plugins/precision/amp.py``; issue 18089)
_CLIPS = ("clip_grad_norm_", "clip_grad_value_", "clip_gradients")


def _fp16_trainer(ctx: FileContext) -> Optional[ast.AST]:
    """The ``precision=`` of a ``Trainer(...)`` of the file asking for fp16 mixed precision."""
    for call in ctx.nodes(ast.Call):
        if call_last(call) != "Trainer":
            continue
        kw = next((k.value for k in call.keywords if k.arg == "precision"), None)
        if kw is None or any(k.arg == "plugins" for k in call.keywords):
            continue  # a custom precision plugin may clip or unscale its own way
        value = const_str(kw)
        if value is None and isinstance(kw, ast.Constant) and isinstance(kw.value, int):
            value = kw.value  # type: ignore[assignment]
        if value in FP16_PRECISIONS:
            return kw
    return None


@register
class ManualClipOnScaledGrads(Rule):
    code = "PF446"
    needs_text = ("manual_backward",)
    name = "manual-clip-on-scaled-grads"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("`clip_grad_norm_` or `self.clip_gradients` right after `self.manual_backward` under fp16 mixed "
               "precision clips loss-scaled gradients")
    explanation = """
## What it finds

A LightningModule under manual optimization (`self.automatic_optimization = False`)
that calls `torch.nn.utils.clip_grad_norm_`/`clip_grad_value_` or Lightning's
`self.clip_gradients(opt, ...)` after `self.manual_backward(...)` in the same method, in a
file whose `Trainer` runs `precision="16-mixed"` (or `16`), with no `unscale_` call in the
method.

## Why it matters

Under fp16 mixed precision `manual_backward` back-propagates the loss multiplied by the
GradScaler's scale (65536 at the start). The gradients are unscaled only inside
`optimizer.step()`, so a clip in between measures the scaled norm: with a threshold of 1
nearly every step is clipped to a tiny fraction of its true size, and the update is
shrunk by the scale factor (ESAOpenSR SRGAN PR 88: "unscale optimizers before clipping
gradients in manual training loop when AMP is active"). `self.clip_gradients` is no
exception, although Lightning's manual-optimization docs show it in this place: it hands the
gradients to the precision plugin's `clip_gradients`, which clips them as they are; the
GradScaler unscales only inside `opt.step()` (read in Lightning 2.0.5 and on master:
`core/module.py`, `plugins/precision/amp.py`; Lightning issue 18089).

## How to fix it

`self.trainer.precision_plugin.scaler.unscale_(opt)` before the clip, clip in
`on_before_optimizer_step` (Lightning calls it after unscaling), or use automatic
optimization with `Trainer(gradient_clip_val=...)`.

## When preflight stays silent

* bf16 or 32-bit precision (no loss scale), or no `Trainer(precision=...)` in the file; a
  Trainer given `plugins=` (a custom precision plugin may unscale before clipping, as the
  workaround plugins written for Lightning issue 18089 do).
* `unscale_` is called in the method, or the clip comes before the backward or sits in another
  method (`on_before_optimizer_step`, `configure_gradient_clipping`).
* (Until det69 a `self.clip_gradients` call in the method silenced the rule, which took it for an
  unscaling clip.)
"""
    bad_examples = examples("preflight.rules.code._pf446_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf446_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        precision = _fp16_trainer(ctx)
        if precision is None:
            return
        for cls in ctx.nodes(ast.ClassDef):
            if manual_optimization(cls) is None:
                continue
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef):
                    continue
                calls = sorted((n for n in ast.walk(fn) if isinstance(n, ast.Call)),
                               key=lambda n: (n.lineno, n.col_offset))
                if any(call_last(c) == "unscale_" for c in calls):
                    continue
                backward_seen = False
                for call in calls:
                    name = call_last(call)
                    if name == "manual_backward":
                        backward_seen = True
                    elif name in _CLIPS and backward_seen:
                        yield ctx.finding(
                            self, call,
                            f"`{ast.unparse(call.func)}` runs right after `self.manual_backward` under fp16 mixed "
                            f"precision (`precision={ast.unparse(precision)}`): the gradients still carry the loss "
                            "scale until `optimizer.step()`, so the clip measures the scaled norm and shrinks the "
                            "update by the scale factor (`self.clip_gradients` does not unscale either: Lightning "
                            "issue 18089). Call `self.trainer.precision_plugin.scaler.unscale_(opt)` before the "
                            "clip, or clip in `on_before_optimizer_step`, which runs after the unscale",
                            evidence=[ctx.evidence(precision, "fp16 mixed precision is set here")])
