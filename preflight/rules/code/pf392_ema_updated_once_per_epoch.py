"""PF392 ema-updated-once-per-epoch: a model EMA updated in the epoch loop, after the batch loop that
steps the optimizer, instead of after every optimizer step."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, target_text
from preflight.rules.base import Rule, examples

# EMA helpers that expect one update per optimizer step -> the method that updates them
_EMA_CLASSES = {"ModelEma": "update", "ModelEmaV2": "update", "ModelEmaV3": "update", "ModelEMA": "update",
                "ExponentialMovingAverage": "update", "EMA": "update", "EMAModel": "step"}
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _emas(ctx: FileContext) -> dict[str, tuple[ast.Call, str]]:
    out: dict[str, tuple[ast.Call, str]] = {}
    for node in ctx.nodes(ast.Assign):
        if len(node.targets) != 1 or not isinstance(node.value, ast.Call):
            continue
        qual = next((q for c, q in calls(ctx) if c is node.value), "")
        last = qual.rsplit(".", 1)[-1]
        name = target_text(node.targets[0])
        if name and last in _EMA_CLASSES:
            out[name] = (node.value, _EMA_CLASSES[last])
    return out


def _optimizer_step(node: ast.AST) -> Optional[ast.Call]:
    """``optimizer.step()``, ``opt.step()``, ``scaler.step(optimizer)``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step"):
        return None
    receiver = (target_text(node.func.value) or "").rsplit(".", 1)[-1].lower()
    stepper = "optim" in receiver or receiver in ("opt", "scaler") or receiver.endswith(("_opt", "scaler"))
    return node if stepper else None


def _steps_in(root: ast.AST, ctx: FileContext, nested: bool) -> list[ast.Call]:
    """Optimizer steps under ``root`` inside (``nested``) or outside a loop nested in ``root``."""
    out: list[ast.Call] = []
    for node in ast.walk(root):
        step = _optimizer_step(node)
        if step is None:
            continue
        inner = ctx.enclosing_loop(step)
        if inner is None or not ctx.under(inner, root):
            continue
        if (inner is not root) == nested:
            out.append(step)
    return out


@register
class EmaUpdatedOncePerEpoch(Rule):
    code = "PF392"
    name = "ema-updated-once-per-epoch"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("EMA", "Ema", "ExponentialMovingAverage")
    summary = ("a model EMA (timm `ModelEma`, `ExponentialMovingAverage`, diffusers `EMAModel`, ...) is updated "
               "once per epoch, after the batch loop that steps the optimizer: its per-step decay barely moves")
    explanation = """
## What it finds

An EMA of the model's weights, built from a class that expects one update per optimizer step
(timm `ModelEma`/`ModelEmaV2`/`ModelEmaV3`, YOLO-style `ModelEMA`, `torch_ema.ExponentialMovingAverage`,
`ema_pytorch.EMA`, diffusers `EMAModel`), whose `update(...)` (`step(...)` for `EMAModel`) is called
in an outer loop after an inner loop that runs `optimizer.step()`, while the outer loop itself never
steps an optimizer: the EMA is updated once per epoch instead of once per step.

## Why it matters

The decay constants of these helpers (0.999, 0.9998, 0.9999) are per-step values: with 0.9998 the
EMA averages over roughly the last 5000 steps. Updated once per epoch, it takes 100 updates in a
100-epoch run and still holds 0.9998**100 = 98% of the initial weights: the EMA model that is
evaluated, kept as "best" and shipped is essentially the untrained network (pytorch-image-models
issue 1831, "ModelEma doesn't update"; the maintainer's answer: update it every optimizer step).
Nothing fails; the EMA accuracy just stays at chance.

## How to fix it

Call the EMA update right after every `optimizer.step()`, inside the batch loop.

## When preflight stays silent

* The outer loop also steps an optimizer (gradient accumulation: micro-batches in the inner loop,
  one step and one EMA update per outer iteration).
* The batch loop runs in a helper (`train_one_epoch(...)`) rather than in the same function.
* `torch.optim.swa_utils.AveragedModel` (stochastic weight averaging is updated once per epoch by
  design), or an EMA class not listed above.
"""
    bad_examples = examples("preflight.rules.code._pf392_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf392_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        emas = _emas(ctx)
        if not emas:
            return
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not isinstance(func, ast.Attribute):
                continue
            name = target_text(func.value)
            if name not in emas or func.attr != emas[name][1]:
                continue
            outer = ctx.enclosing(call, ast.For, ast.AsyncFor, ast.While)
            if outer is not None and ctx.enclosing_loop(call) is not outer:
                outer = None
            if outer is None or _steps_in(outer, ctx, nested=False):
                continue
            inner_steps = _steps_in(outer, ctx, nested=True)
            if not inner_steps:
                continue
            created = emas[name][0]
            step = inner_steps[0]
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call)}` runs once per iteration of the outer loop (line {outer.lineno}), after the "
                f"inner loop that calls `{ast.unparse(step)}` (line {step.lineno}): the EMA built on line "
                f"{created.lineno} gets one update per epoch while its decay is a per-step constant, so it stays "
                "close to the initial weights. Update the EMA right after every optimizer step",
                evidence=[ctx.evidence(step, "the optimizer steps here, every batch"),
                          ctx.evidence(created, "the EMA and its per-step decay")])
