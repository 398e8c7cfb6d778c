"""PF504 offload-param-below-stage3: parameter offload configured with ZeRO stage 0-2."""

from __future__ import annotations

from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _stage(value: Any) -> Any:
    if value is True:
        return 1  # legacy "zero_optimization": true
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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
    bad_examples = examples("preflight.rules._pf50x_examples", "PF504_BAD")
    good_examples = examples("preflight.rules._pf50x_examples", "PF504_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        from preflight.adapters.accelerate import is_accelerate_config  # off the check path

        for config, block, prefix in pctx.deepspeed_configs():
            zo = block.get("zero_optimization")
            if not isinstance(zo, dict):
                continue
            off = zo.get("offload_param")
            device = off.get("device") if isinstance(off, dict) else None
            stage = _stage(zo.get("stage", 0))
            if device in ("cpu", "nvme") and stage is not None and stage < 3:
                yield self._report(pctx, config, (*prefix, "zero_optimization", "offload_param", "device"),
                                   (*prefix, "zero_optimization", "stage"), device, stage,
                                   "stage" in zo)
        for config in pctx.configs:
            if not is_accelerate_config(config.data):
                continue
            ds = config.data.get("deepspeed_config")
            if not isinstance(ds, dict) or "deepspeed_config_file" in ds:
                continue
            device = ds.get("offload_param_device")
            stage = _stage(ds.get("zero_stage", 2))
            if device in ("cpu", "nvme") and stage is not None and stage < 3:
                yield self._report(pctx, config, ("deepspeed_config", "offload_param_device"),
                                   ("deepspeed_config", "zero_stage"), device, stage, "zero_stage" in ds)

    def _report(self, pctx: PlanContext, config: Any, device_key: tuple, stage_key: tuple, device: str,
                stage: int, explicit: bool) -> Finding:
        said = f"stage {stage}" if explicit else f"stage {stage} (the default)"
        message = (f"Parameters are offloaded to {device} but ZeRO runs at {said}: DeepSpeed offloads "
                   "parameters only at stage 3 (\"valid only with stage 3\"), so every GPU still holds all "
                   "parameters. Use stage 3, or drop `offload_param` (offload the optimizer instead)")
        evidence = [pctx.config_evidence(config, device_key, f"offload_param device {device}"),
                    pctx.config_evidence(config, stage_key, said)]
        return pctx.config_finding(self, config, device_key, message, evidence=evidence)
