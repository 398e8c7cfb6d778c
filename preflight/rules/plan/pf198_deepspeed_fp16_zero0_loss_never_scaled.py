"""PF198 deepspeed-fp16-zero0-loss-never-scaled: a DeepSpeed config with fp16 on and ZeRO stage 0 on DeepSpeed
0.18.3 or later: ``engine.backward`` no longer multiplies the loss by the loss scale while the FP16 optimizer
still divides the gradients by it, so every update is ~65536x too small."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# v0.18.3 replaced engine._do_optimizer_backward (which routed fp16 without ZeRO to FP16_Optimizer.backward,
# the method that multiplies the loss by cur_scale) with a plain loss.backward() that scales only for a
# ZeROOptimizer or the torch-autocast GradScaler; read in deepspeed/runtime/engine.py at v0.18.2, v0.18.3,
# v0.19.5 and master of 2026-08-22 (DeepSpeed PR 8393, open, adds the missing branch)
_BROKEN_FROM = (0, 18, 3)
_LAST_READ = "0.19.5"


def _on(value: Any) -> Optional[bool]:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return {"true": True, "false": False}.get(value.strip().lower())
    return None


def _enabled(block: dict, key: str) -> Optional[bool]:
    node = block.get(key)
    if not isinstance(node, dict):
        return False if node is None else _on(node)
    return _on(node.get("enabled", False))


def _stage(block: dict) -> Any:
    zero = block.get("zero_optimization")
    if zero is None:
        return 0
    if not isinstance(zero, dict):
        return None
    stage = zero.get("stage", 0)
    return stage if isinstance(stage, int) and not isinstance(stage, bool) else None


@register
class DeepSpeedFp16Zero0LossNeverScaled(PlanRule):
    code = "PF198"
    name = "deepspeed-fp16-zero0-loss-never-scaled"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("fp16 with ZeRO stage 0 on DeepSpeed 0.18.3 or later: `engine.backward` does not scale the loss but "
               "the FP16 optimizer still divides the gradients by the loss scale, so updates are ~65536x too small")
    explanation = """
## What it finds

A DeepSpeed config with `"fp16": {"enabled": true}` (or `"auto"` where the job's precision
is fp16), no bf16, and `zero_optimization.stage` 0 (or no ZeRO block), in a project whose
DeepSpeed is pinned at 0.18.3 or later, or not pinned (every release since 0.18.3, up to
0.19.5, the latest read, has the defect). Unlike the fixed defects of PF385's table, where an
unpinned install most likely gets a fixed release, no release has this fix yet, so an
unpinned install today gets an affected one.

## Why it matters

Without ZeRO, DeepSpeed wraps the optimizer in its `FP16_Optimizer`, whose `step()` divides
every gradient by the current loss scale (`cur_scale`, 2^16 with the default
`initial_scale_power`). Up to 0.18.2 `engine.backward` called `FP16_Optimizer.backward`,
which multiplies the loss by that scale first. Since 0.18.3 `engine.backward` calls
`loss.backward()` directly and scales only for a ZeRO optimizer or the torch-autocast
GradScaler (deepspeed/runtime/engine.py, "TODO: handle these scaling with direct calls to
loss.backward()"). The gradients are therefore divided by a scale they never carried: every
update is tens of thousands of times too small, nothing fails, and the loss stalls.
DeepSpeed PR 8393 (open): "making effective parameter updates ~cur_scale times too small and
stalling training" (CIFAR-10 MoE: 22-28% accuracy before the fix, 49% after); the bf16
side of the same refactor is DeepSpeed issue 7837 / PR 7839.

## How to fix it

Use ZeRO stage 1 or 2 (their optimizers scale the loss), train in bf16, set a static
`"loss_scale": 1` if fp16 without scaling is acceptable, or pin DeepSpeed below 0.18.3.

## When preflight stays silent

* ZeRO stage 1, 2 or 3; bf16 on; fp16 off or `"auto"` in a job whose precision is not fp16.
* `fp16.loss_scale` is a static 1 (dividing by 1 is harmless), or `torch_autocast`/`amp`
  is enabled (other backward paths that do scale).
* DeepSpeed is pinned (or bounded from above) below 0.18.3.
"""
    bad_examples = examples("preflight.rules.plan._pf198_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf198_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = pctx.deepspeed_configs()
        if not configs:
            return
        found = pctx.version("deepspeed")
        if found is not None and found.how == "pinned" and not found.at_least(*_BROKEN_FROM):
            return
        for config, block, prefix in configs:
            fp16 = block.get("fp16")
            if not isinstance(fp16, dict):
                continue
            on = fp16.get("enabled", False)
            if on == "auto":
                fact = pctx.plan.resolve("precision.mode")
                if fact is None or fact.value != "fp16":
                    continue
            elif _on(on) is not True:
                continue
            if _enabled(block, "bf16") is not False or _enabled(block, "bfloat16") is not False:
                continue
            if _enabled(block, "torch_autocast") or _enabled(block, "amp"):
                continue
            scale = fp16.get("loss_scale", 0)
            if isinstance(scale, (int, float)) and not isinstance(scale, bool) and scale == 1:
                continue
            if _stage(block) != 0:
                continue
            release = (found.describe() + ("" if found.how == "pinned" else ", which admits 0.18.3 and later")
                       if found is not None
                       else f"an unpinned DeepSpeed (every release from 0.18.3 to {_LAST_READ}, the latest read, "
                            "is affected)")
            yield pctx.config_finding(
                self, config, (*prefix, "fp16", "enabled"),
                f"fp16 with ZeRO stage 0 under {release}: since 0.18.3 `engine.backward` calls loss.backward() "
                "without multiplying the loss by the loss scale, while DeepSpeed's FP16_Optimizer still divides "
                "every gradient by it (2^16 at the default initial_scale_power): each update is ~65536x too "
                "small and training silently stalls (DeepSpeed PR 8393). Use ZeRO stage 1/2 or bf16, or pin "
                "deepspeed<0.18.3")
