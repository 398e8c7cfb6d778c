"""PF282 offload-optimizer-at-zero-stage-0: optimizer offload (``offload_optimizer`` or the legacy
``cpu_offload``) in a DeepSpeed config whose ZeRO stage is 0."""

from __future__ import annotations

from typing import Iterable

from preflight.adapters.deepspeed import ZERO_STAGE_SHARDING
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_STAGE_NUMBER = {value: stage for stage, value in ZERO_STAGE_SHARDING.items()}


@register
class OffloadOptimizerAtZeroStage0(PlanRule):
    code = "PF282"
    name = "offload-optimizer-at-zero-stage-0"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "accelerate")
    summary = "Optimizer offload is configured with ZeRO stage 0, where no ZeRO optimizer runs to offload it"
    explanation = """
## What it finds

`zero_optimization.offload_optimizer.device` set to `cpu` or `nvme` (or the legacy
`"cpu_offload": true`) in a DeepSpeed config whose `zero_optimization.stage` is 0
(written, or unset: DeepSpeed's default), and the same in an accelerate config
(`deepspeed_config.offload_optimizer_device` with `zero_stage: 0`).

## Why it matters

ZeRO-Offload is part of the ZeRO optimizer (stages 1-3): at stage 0 DeepSpeed builds
no ZeRO optimizer, so nothing moves the optimizer states or the fp32 master weights
to the CPU. The offload flag still switches DeepSpeed's optimizer choice: an `Adam`/
`AdamW` section becomes `DeepSpeedCPUAdam` over parameters that stay on the GPU, and
its first step fails ("CPUAdam param is on cuda:0 and must be 'cpu', make sure you
enabled 'offload_optimizer': 'cpu' in your ZeRO config"); a client torch optimizer is
refused at `deepspeed.initialize` (the ZeRO-Offload client-optimizer check). Old
releases exited without an error and without training (DeepSpeed issue 610:
"zero_optimization.cpu_offload: true leads to a silent crash" with `"stage": 0`). With
another optimizer the offload silently does nothing and the memory it was meant to
save is still on the GPU.

## How to fix it

Use `"stage": 2` (or 1, or 3) with the optimizer offload, or remove the offload.

## When preflight stays silent

* Stage 1, 2 or 3; `"device": "none"`; a stage preflight cannot read (`"auto"`).
* Parameter offload below stage 3 is PF504's finding.
"""
    bad_examples = examples("preflight.rules.plan._pf282_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf282_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the plan only: the optimizer offload and the stage one config states, as the
        DeepSpeed and accelerate adapters recorded them."""
        plan = pctx.plan
        for off in plan.facts("dist.offload_optimizer"):
            if off.value not in ("cpu", "nvme") or off.source.kind != "config" \
                    or off.adapter not in ("deepspeed", "accelerate"):
                continue
            stages = [f for f in plan.facts("dist.sharding")
                      if f.source.path == off.source.path and f.adapter == off.adapter]
            stage = _STAGE_NUMBER.get(stages[0].value) if stages else None
            if stage != 0:
                continue  # stages 1-3 offload, or a stage preflight cannot read ("auto")
            said = "ZeRO stage 0" if stages[0].source.kind != "default" else "ZeRO stage 0 (the default)"
            key = "`cpu_offload`" if "cpu_offload" in (off.source.detail or "") else "`offload_optimizer`"
            message = (f"The optimizer is offloaded to {off.value} ({key}) but the config runs {said}: "
                       "offload belongs to the ZeRO optimizer of stages 1-3, which stage 0 does not build. "
                       "DeepSpeed then makes a config Adam a `DeepSpeedCPUAdam` over parameters left on the GPU "
                       "and the first step fails (\"CPUAdam param is on cuda:0 and must be 'cpu'\"; DeepSpeed 0.3 "
                       "exited silently), or the offload does nothing. Use `\"stage\": 2` with the offload, or "
                       "drop it")
            evidence = [e for e in (pctx.fact_evidence(off, f"optimizer offload to {off.value}"),
                                    pctx.fact_evidence(stages[0], said)) if e is not None]
            finding = pctx.fact_finding(self, off, message, evidence=evidence)
            if finding is not None:
                yield finding
