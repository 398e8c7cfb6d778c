"""PF540 offload-with-client-optimizer: ZeRO-Offload with a client torch optimizer and no optimizer in the config."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


@register
class OffloadWithClientOptimizer(PlanRule):
    code = "PF540"
    name = "offload-with-client-optimizer"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = "ZeRO-Offload of the optimizer with a client torch optimizer and no `optimizer` in the DeepSpeed config"
    explanation = """
## What it finds

A DeepSpeed config that offloads the optimizer (`zero_optimization.offload_optimizer.device`
`cpu` or `nvme`) and declares no `optimizer` section, in a job whose code builds
its own optimizer (`torch.optim.AdamW(...)`, a bitsandbytes optimizer) that is not
one of DeepSpeed's CPU optimizers (`DeepSpeedCPUAdam`, `DeepSpeedCPUAdagrad`,
`DeepSpeedCPULion`).

## Why it matters

`deepspeed.initialize(model=..., optimizer=<client optimizer>)` checks the
combination and refuses it at start-up: "You are using ZeRO-Offload with a client
provided optimizer (<class 'torch.optim.adamw.AdamW'>) which in most cases will yield
poor performance. Please either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an
optimizer in your ds-config" (LMFlow issue 470).

## How to fix it

Build `deepspeed.ops.adam.DeepSpeedCPUAdam(model.parameters(), ...)`, or add an
`"optimizer": {"type": "AdamW", "params": {...}}` section and pass no optimizer.

## When preflight stays silent

* The DeepSpeed config has an `optimizer` section, or the offload device is `none`.
* The code's optimizer is a DeepSpeed CPU optimizer, or the only optimizer is the
  one a Trainer builds from its arguments (transformers' integration picks it).
* The job runs through Accelerate or the HF Trainer (a TrainingArguments setting):
  `accelerator.prepare` maps a torch Adam/AdamW to `DeepSpeedCPUAdam` itself
  (`map_pytorch_optim_to_deepspeed`) when the optimizer is offloaded.
* Not read: `"zero_force_ds_cpu_optimizer": false`, which turns DeepSpeed's check off.
"""
    bad_examples = examples("preflight.rules.plan._pf540_examples", "PF540_BAD")
    good_examples = examples("preflight.rules.plan._pf540_examples", "PF540_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the plan only: the offload device and the optimizer names the adapters recorded."""
        plan = pctx.plan
        offloads = [f for f in plan.facts("dist.offload_optimizer")
                    if f.value in ("cpu", "nvme") and f.adapter == "deepspeed" and f.source.kind == "config"]
        if not offloads:
            return
        fields = ("batch.micro", "batch.grad_accum", "precision.mode", "dist.sharding")
        if any(f.adapter == "accelerate" or (f.adapter == "transformers" and field.startswith("batch.")
                                             and f.source.kind in ("code", "config"))
               for field in fields for f in plan.facts(field)):
            return  # Accelerate (and the HF Trainer, built on it) maps a torch Adam/AdamW to DeepSpeedCPUAdam
        names = plan.facts("optimizer.name")
        if any(f.adapter == "deepspeed" and f.source.kind == "config" for f in names):
            return  # the config's optimizer section: DeepSpeed builds a compatible one
        clients = [f for f in names if f.adapter == "pytorch" and f.source.kind == "code"
                   and isinstance(f.value, str) and not f.value.startswith("DeepSpeedCPU")]
        if not clients or any(f.adapter == "pytorch" and str(f.value).startswith("DeepSpeedCPU") for f in names):
            return
        off, client = offloads[0], clients[0]
        evidence = [e for e in (pctx.fact_evidence(off, f"offload_optimizer device {off.value}, no optimizer "
                                                        "section"),) if e is not None]
        finding = pctx.fact_finding(
            self, client,
            f"`{client.value}` is a client optimizer, but {off.source.path} offloads the optimizer to "
            f"{off.value} and declares no `optimizer`: deepspeed.initialize refuses it (\"You are using "
            "ZeRO-Offload with a client provided optimizer ... Please either use "
            "deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer in your ds-config\"). Use "
            "`DeepSpeedCPUAdam`, or an `optimizer` section in the config",
            evidence=evidence)
        if finding is not None:
            yield finding
