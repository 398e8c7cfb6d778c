"""PF411 fp32-load-for-mixed-precision: transformers 4 loads fp32 weights for a bf16/fp16 job."""

from __future__ import annotations

import ast
from typing import Iterable

from preflight.analysis.syntax import dotted_name
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, model_loads
from preflight.rules.base import examples

_DTYPE_KEYS = ("torch_dtype", "dtype", "quantization_config", "load_in_4bit", "load_in_8bit", "device_map")
# a script that trains only part of the loaded model (adapters, a frozen base): the frozen float32
# weights need no master copy. Without any of these, every weight trains and float32 is the master copy
# mixed precision keeps on purpose.
_PARTIAL = ("get_peft_model", "peft_config", "LoraConfig", "PeftModel", "prepare_model_for_kbit_training",
            "requires_grad_(False)", "requires_grad = False", "requires_grad=False")


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
Accelerate or Lightning precision setting) only part of the model: the script wraps it
in PEFT adapters (`get_peft_model`, `peft_config=`, `LoraConfig`) or freezes weights
(`requires_grad_(False)`).

## Why it matters

Before transformers 5 the default load dtype is float32, whatever the
checkpoint holds: a bf16 checkpoint of 7B parameters becomes 28 GB of weights
instead of 14 GB, before optimizer state and activations. Mixed precision
does not change that: autocast computes in 16 bits but the stored weights stay
float32. The frozen base weights of an adapter fine-tune never need a float32 master copy.
(transformers 5 loads with `dtype="auto"`, the checkpoint's dtype.)

## How to fix it

Pass the dtype: `from_pretrained(name, torch_dtype=torch.bfloat16)` (or
`torch_dtype="auto"`).

## When preflight stays silent

* The project declares transformers 5 or no version (5.x default: `"auto"`).
* `torch_dtype`/`dtype`, `quantization_config`, `load_in_*`, `device_map` or
  `**kwargs` on the call; precision not known to be mixed.
* The loaded model is cast to 16 bits after the load, in the same function: `.half()`,
  `.bfloat16()`, or `.to(...)` with a dtype that is not float32 (diffusers' LoRA scripts:
  `text_encoder.to(accelerator.device, dtype=weight_dtype)`); only the load itself holds float32.
* fp16 mixed precision and LoRA adapters added to the loaded model itself (`model.add_adapter(...)`,
  `get_peft_model(model, ...)`) with no upcast of the trainable parameters (`cast_training_params`):
  peft creates the adapter weights in the base weights' dtype, so a 16-bit load would train fp16
  adapters that GradScaler refuses to unscale; the float32 load is what keeps the job running.
* The script trains every weight (no PEFT wrap, no freezing): mixed precision keeps float32
  master weights on purpose (torch AMP's GradScaler refuses fp16 gradients, and bf16
  weights lose small updates), so the float32 load is what the job needs.
"""
    bad_examples = examples("preflight.rules.plan._pf411_examples", "PF411_BAD")
    good_examples = examples("preflight.rules.plan._pf411_examples", "PF411_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        precision = pctx.plan.resolve("precision.mode")
        if precision is None or precision.value not in ("amp_bf16", "amp_fp16"):
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not any(marker in text for marker in _PARTIAL):
                continue  # a full fine-tune: float32 master weights are intended
            version = pctx.version("transformers", script)
            if version is None or version.at_least(5):
                continue
            for site in model_loads(pctx, script):
                if has_unpacking(site.call) or any(site.kwarg(k) is not None for k in _DTYPE_KEYS):
                    continue
                if site.target is not None and _cast_after(script.tree, site.call, site.target):
                    continue  # cast to 16 bits right after loading: only the load itself briefly holds float32
                if precision.value == "amp_fp16" and site.target is not None \
                        and _adapters_on(script.tree, site.target) and "cast_training_params" not in text:
                    # LoRA layers added to this model take its weights' dtype (peft 0.10
                    # tuners/lora/layer.py `update_layer`: `self.to(weight.device, dtype=weight.dtype)`):
                    # loaded in fp16, the trained adapters would be fp16 and GradScaler refuses to unscale
                    # them; without an upcast of the trainable parameters, float32 is the load that works
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


_FP32 = ("float32", "float", "fp32")


def _adapters_on(tree: ast.AST, target: str) -> bool:
    """``target.add_adapter(...)`` or ``get_peft_model(target, ...)``: trainable adapters attached to it."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("add_adapter", "load_adapter") \
                and dotted_name(node.func.value) == target:
            return True
        if (dotted_name(node.func) or "").rsplit(".", 1)[-1] == "get_peft_model" and node.args \
                and dotted_name(node.args[0]) == target:
            return True
    return False


def _to_16(call: ast.Call) -> bool:
    """``.to(...)`` with a dtype argument that is not float32: ``dtype=weight_dtype``, ``torch.float16``."""
    args = [kw.value for kw in call.keywords if kw.arg == "dtype"]
    args += [a for a in call.args if (dotted_name(a) or "").rsplit(".", 1)[-1] not in ("device", "cuda")
             and ("dtype" in (dotted_name(a) or "") or (dotted_name(a) or "").startswith("torch."))]
    return any((dotted_name(a) or "").rsplit(".", 1)[-1] not in _FP32 for a in args)


def _cast_after(tree: ast.AST, load: ast.Call, target: str) -> bool:
    """``target`` cast to 16 bits after ``load``, in the function holding the load (or the module)."""
    scope: ast.AST = tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= load.lineno \
                and (node.end_lineno or 0) >= load.lineno and any(n is load for n in ast.walk(node)):
            scope = node  # innermost: ast.walk visits outer functions first
    for node in ast.walk(scope):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) \
                or node.lineno <= load.lineno or dotted_name(node.func.value) != target:
            continue
        if node.func.attr in ("half", "bfloat16") or (node.func.attr == "to" and _to_16(node)):
            return True
    return False
