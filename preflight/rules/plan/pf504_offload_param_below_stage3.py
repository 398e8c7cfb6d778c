"""PF504 offload-param-below-stage3: parameter offload configured with ZeRO stage 0-2."""

from __future__ import annotations

from typing import Iterable

from preflight.adapters.deepspeed import ZERO_STAGE_SHARDING
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_STAGE_NUMBER = {value: stage for stage, value in ZERO_STAGE_SHARDING.items()}


@register
class OffloadParamBelowStage3(PlanRule):
    code = "PF504"
    name = "offload-param-below-stage3"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("deepspeed", "accelerate")
    summary = "Parameter offload is configured with a ZeRO stage below 3, where it does nothing"
    explanation = """
## What it finds

`zero_optimization.offload_param.device` set to `cpu` or `nvme` in a DeepSpeed
config whose `zero_optimization.stage` is 0, 1 or 2 (or unset: stage 0), and the
same in an accelerate config (`deepspeed_config.offload_param_device` with
`zero_stage` below 3).

## Why it matters

DeepSpeed documents `offload_param` as "valid only with stage 3": only ZeRO-3
partitions the parameters, so there is nothing to offload below it. The job
keeps a full copy of the parameters on every GPU while its author believes
they live in CPU memory, and memory plans made from the config are wrong.

## How to fix it

Use `"stage": 3` if the parameters must leave the GPU, or remove
`offload_param` (use `offload_optimizer` to move optimizer state at stage 1-2).

## When preflight stays silent

* Stage 3; `"device": "none"`; a stage preflight cannot read (`"auto"`).
"""
    bad_examples = examples("preflight.rules.plan._pf504_examples", "PF504_BAD")
    good_examples = examples("preflight.rules.plan._pf504_examples", "PF504_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the plan only: the offload and the stage that one config (DeepSpeed JSON or
        dict, accelerate YAML) states, as the adapters that own their semantics recorded them."""
        plan = pctx.plan
        for off in plan.facts("dist.offload_params"):
            if off.value not in ("cpu", "nvme") or off.source.kind != "config" \
                    or off.adapter not in ("deepspeed", "accelerate"):
                continue
            stages = [f for f in plan.facts("dist.sharding")
                      if f.source.path == off.source.path and f.adapter == off.adapter]
            stage = _STAGE_NUMBER.get(stages[0].value) if stages else None
            if stage is None or stage >= 3:
                continue  # stage 3, or a stage preflight cannot read ("auto")
            said = f"stage {stage}" if stages[0].source.kind != "default" else f"stage {stage} (the default)"
            message = (f"Parameters are offloaded to {off.value} but ZeRO runs at {said}: DeepSpeed offloads "
                       "parameters only at stage 3 (\"valid only with stage 3\"), so every GPU still holds all "
                       "parameters. Use stage 3, or drop `offload_param` (offload the optimizer instead)")
            evidence = [e for e in (pctx.fact_evidence(off, f"offload_param device {off.value}"),
                                    pctx.fact_evidence(stages[0], said)) if e is not None]
            finding = pctx.fact_finding(self, off, message, evidence=evidence)
            if finding is not None:
                yield finding
