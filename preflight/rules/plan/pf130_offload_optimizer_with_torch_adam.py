"""PF130 offload-optimizer-with-torch-adam: ``torch_adam: true`` in a DeepSpeed optimizer whose state ZeRO
offloads to the CPU."""

from __future__ import annotations

from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _offload_device(block: dict[str, Any]) -> Any:
    zero = block.get("zero_optimization")
    offload = zero.get("offload_optimizer") if isinstance(zero, dict) else None
    return offload.get("device") if isinstance(offload, dict) else None


@register
class OffloadOptimizerWithTorchAdam(PlanRule):
    code = "PF130"
    name = "offload-optimizer-with-torch-adam"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("deepspeed",)
    summary = ("`torch_adam: true` in a DeepSpeed Adam/AdamW optimizer that ZeRO-Offload runs on the CPU: "
               "torch's AdamW replaces DeepSpeedCPUAdam")
    explanation = """
## What it finds

A DeepSpeed config whose `optimizer` is `Adam` or `AdamW` with `"torch_adam": true` among
its `params`, while `zero_optimization.offload_optimizer.device` is `cpu` or `nvme`.

## Why it matters

`DeepSpeedEngine._configure_basic_optimizer` tests `torch_adam` before the offload: with it
set the engine builds `torch.optim.AdamW` (or `Adam`) and never `DeepSpeedCPUAdam`, the
vectorised CPU kernel ZeRO-Offload is designed around. The optimizer step then runs torch's
generic Adam over every fp32 master weight and state on the host, and the GPUs wait for it
on each step: the job trains, several times slower. DeepSpeed's "client optimizer with
ZeRO-Offload" check does not apply to an optimizer built from the config, so nothing is
printed.

## How to fix it

Drop `torch_adam` (DeepSpeed then uses `DeepSpeedCPUAdam` for the offloaded optimizer).

## When preflight stays silent

* No offload (`torch_adam` on the GPU selects torch's Adam instead of FusedAdam, a choice
  without this cost), `torch_adam: false`, or an optimizer type other than Adam/AdamW.
* The DeepSpeed config's optimizer section is not read (a client optimizer is passed to
  `deepspeed.initialize`, PF540).
"""
    bad_examples = examples("preflight.rules.plan._pf130_examples", "PF130_BAD")
    good_examples = examples("preflight.rules.plan._pf130_examples", "PF130_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for config, block, prefix in pctx.deepspeed_configs():
            optimizer = block.get("optimizer")
            if not isinstance(optimizer, dict) or str(optimizer.get("type", "")).lower() not in ("adam", "adamw"):
                continue
            params = optimizer.get("params")
            if not isinstance(params, dict) or params.get("torch_adam") is not True:
                continue
            device = _offload_device(block)
            if device not in ("cpu", "nvme"):
                continue
            yield pctx.config_finding(
                self, config, (*prefix, "optimizer", "params", "torch_adam"),
                f"`torch_adam: true` makes DeepSpeed build torch.optim.{optimizer.get('type')} for the optimizer "
                f"ZeRO-Offload runs on the {device} (`offload_optimizer.device: {device}`), instead of "
                "DeepSpeedCPUAdam: every step waits on torch's unvectorised CPU Adam over all fp32 states while "
                "the GPUs idle. Drop `torch_adam`")
