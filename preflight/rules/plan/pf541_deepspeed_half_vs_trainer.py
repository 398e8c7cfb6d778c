"""PF541 deepspeed-half-vs-trainer: a DeepSpeed config's explicit fp16/bf16 that the TrainingArguments switch off."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# DeepSpeed's precision.mode value -> the TrainingArguments switch the HF integration compares it with
_SWITCH = {"fp16": ("precision.hf_fp16", "fp16"), "bf16": ("precision.hf_bf16", "bf16")}


@register
class DeepSpeedHalfVsTrainer(PlanRule):
    code = "PF541"
    name = "deepspeed-half-vs-trainer"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = "The DeepSpeed config hard-codes fp16/bf16 on while the TrainingArguments switch it off"
    explanation = """
## What it finds

A DeepSpeed config with `"fp16": {"enabled": true}` (or `bf16`) written as a literal,
in a job whose TrainingArguments (or SFTConfig, an arguments file) say `fp16=False`
(`bf16=False`) explicitly.

## Why it matters

The HF Trainer fills only `"auto"` DeepSpeed values from its arguments and compares
the explicit ones: `fp16.enabled` must equal `fp16 or fp16_full_eval`. When they
differ it stops before training with "Please correct the following DeepSpeed config
values that mismatch TrainingArguments values: - ds fp16.enabled=True vs hf
fp16|fp16_full_eval+fp16_backend(amp)=False" (BELLE issue 154).

## How to fix it

Write `"enabled": "auto"` in the DeepSpeed config so the arguments decide, or make
the two agree.

## When preflight stays silent

* The DeepSpeed value is `"auto"`, or the arguments leave the switch out (its
  default False is not recorded), or `fp16_full_eval`/`bf16_full_eval` is on.
* The arguments' precision already disagrees with the DeepSpeed config in
  `precision.mode`: PF501 reports that conflict.
"""
    bad_examples = examples("preflight.rules.plan._pf540_examples", "PF541_BAD")
    good_examples = examples("preflight.rules.plan._pf540_examples", "PF541_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        """Reads the plan only: DeepSpeed's precision.mode facts and the arguments' switches."""
        plan = pctx.plan
        modes = plan.facts("precision.mode")
        for ds in modes:
            if ds.adapter != "deepspeed" or ds.source.kind != "config" or ds.value not in _SWITCH:
                continue
            field, key = _SWITCH[str(ds.value)]
            offs = [f for f in plan.facts(field) if f.value is False and f.adapter == "transformers"]
            if not offs:
                continue
            if any(f.adapter == "transformers" and f.source.kind != "default"
                   and not str(f.value).endswith(str(ds.value)) for f in modes):
                continue  # PF501's conflict
            off = offs[0]
            evidence = [e for e in (pctx.fact_evidence(off, f"{key}=False in the arguments"),) if e is not None]
            finding = pctx.fact_finding(
                self, ds,
                f"`{key}.enabled` is hard-coded true here, but the TrainingArguments say {key}=False: the HF "
                "Trainer compares explicit DeepSpeed values with its arguments and stops before training "
                f"(\"Please correct the following DeepSpeed config values that mismatch TrainingArguments "
                f"values: - ds {key}.enabled=True vs hf {key}...=False\"). Write `\"enabled\": \"auto\"`",
                evidence=evidence)
            if finding is not None:
                yield finding
