"""PF411 fp32-load-for-mixed-precision: transformers 4 loads fp32 weights for a bf16/fp16 job."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, model_loads
from preflight.rules.base import examples

_DTYPE_KEYS = ("torch_dtype", "dtype", "quantization_config", "load_in_4bit", "load_in_8bit", "device_map")


@register
class Fp32LoadForMixedPrecision(PlanRule):
    code = "PF411"
    name = "fp32-load-for-mixed-precision"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("transformers",)
    summary = "transformers 4 loads the model in float32 (no `torch_dtype`) for a mixed-precision job"
    explanation = """
## What it finds

`from_pretrained(...)` of a model without `torch_dtype`/`dtype` (and without
quantization) in a project that declares transformers 4.x (or is audited with
`--transformers-version 4.x`), in a job that
trains in bf16 or fp16 mixed precision (`TrainingArguments(bf16=True)`, an
Accelerate or Lightning precision setting).

## Why it matters

Before transformers 5 the default load dtype is float32, whatever the
checkpoint holds: a bf16 checkpoint of 7B parameters becomes 28 GB of weights
instead of 14 GB, before optimizer state and activations. Mixed precision
does not change that: autocast computes in 16 bits but the stored weights stay
float32. (transformers 5 loads with `dtype="auto"`, the checkpoint's dtype.)

## How to fix it

Pass the dtype: `from_pretrained(name, torch_dtype=torch.bfloat16)` (or
`torch_dtype="auto"`). For full fine-tuning in mixed precision, float32
master weights can be intended: then nothing needs to change.

## When preflight stays silent

* The project declares transformers 5 or no version (5.x default: `"auto"`).
* `torch_dtype`/`dtype`, `quantization_config`, `load_in_*`, `device_map` or
  `**kwargs` on the call; precision not known to be mixed.
"""
    bad_examples = examples("preflight.rules.plan._pf4_plan_examples", "PF411_BAD")
    good_examples = examples("preflight.rules.plan._pf4_plan_examples", "PF411_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        precision = pctx.plan.resolve("precision.mode")
        if precision is None or precision.value not in ("amp_bf16", "amp_fp16"):
            return
        for script in pctx.scripts:
            version = pctx.version("transformers", script)
            if version is None or version.at_least(5):
                continue
            for site in model_loads(pctx, script):
                if has_unpacking(site.call) or any(site.kwarg(k) is not None for k in _DTYPE_KEYS):
                    continue
                mode = "bf16" if precision.value == "amp_bf16" else "fp16"
                message = (
                    f"`{site.label}(...)` without `torch_dtype` loads float32 weights on "
                    f"{version.describe()}, while the job trains in {mode} mixed precision: the stored weights "
                    "take twice the memory of the checkpoint's 16-bit ones. Pass "
                    "`torch_dtype=torch.bfloat16` (or `\"auto\"`) unless float32 master weights are intended")
                evidence = []
                ev = pctx.fact_evidence(precision, f"{mode} mixed precision")
                if ev is not None:
                    evidence.append(ev)
                yield pctx.code_finding(self, script, site.call, message, evidence=evidence)
