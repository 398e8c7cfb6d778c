"""PF579 pure-fp16-full-training: every weight of the trained model is cast to float16 and trained
without mixed precision (no fp32 master weights, no loss scaling)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_TRAINING = frozenset({"finetune", "train", "pretrain"})
_MIXED = frozenset({"amp_fp16", "amp_bf16", "fp8", "mixed"})
# Adam-like optimizers whose `eps` is added to sqrt(v): 1e-8 (their default) is 0 in float16
_ADAM_LIKE = frozenset({"Adam", "AdamW", "Adamax", "NAdam", "RAdam", "FusedAdam", "DeepSpeedCPUAdam"})
_FP16_SAFE_EPS = 1e-6  # float16's smallest subnormal is about 6e-8; 1e-4 is what pure-fp16 recipes use


def _largest_literal(expr: ast.expr) -> Optional[float]:
    """The literal ``eps=`` value, or the largest literal of ``1e-4 if args.fp16 else 1e-8``."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool):
        return float(expr.value)
    if isinstance(expr, ast.IfExp):
        values = [v for v in (_largest_literal(expr.body), _largest_literal(expr.orelse)) if v is not None]
        return max(values) if values else None
    return None


def _eps_raised_for_fp16(pctx: PlanContext) -> bool:
    """Every Adam-like optimizer the job's scripts build sets ``eps`` to a float16-safe literal (the fix of
    the GLIDE fine-tuning report): pure fp16 training chosen on purpose, its NaN cause handled."""
    built = []
    for script in pctx.project.scripts:
        for call in ast.walk(script.tree):
            func = call.func if isinstance(call, ast.Call) else None
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if isinstance(call, ast.Call) and name in _ADAM_LIKE:
                eps = next((kw.value for kw in call.keywords if kw.arg == "eps"), None)
                built.append(_largest_literal(eps) if eps is not None else None)
    return bool(built) and all(v is not None and v >= _FP16_SAFE_EPS for v in built)


@register
class PureFp16FullTraining(PlanRule):
    code = "PF579"
    name = "pure-fp16-full-training"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "transformers")
    summary = ("The whole trained model is cast to float16 (`model.half()`) and trained without mixed precision: "
               "no fp32 master weights, no loss scaling")
    explanation = """
## What it finds

A job that trains every weight of a model (no PEFT adapter) after casting it to
float16 in the code (`model.half()`, `model.to(torch.float16)`, or a
`from_pretrained(torch_dtype=torch.float16)` load in a custom loop), with no mixed
precision anywhere: no `fp16=True`/`bf16=True` in the TrainingArguments or on the
launch line, no autocast or GradScaler, no DeepSpeed or FSDP sharding (which keep
fp32 master weights themselves).

## Why it matters

Mixed precision computes in 16 bits but keeps float32 master weights and scales
the loss. Pure float16 training has neither: small updates (lr x gradient) round
to zero against fp16 weights, small gradients underflow, Adam's second moment
underflows and its `eps` of 1e-8 is 0 in float16, so the step divides by ~0:
the loss goes to 0 or nan after a few steps (TinyLlama issue 32: `model.half()`
added to fit the SFT script on 3090s, "training loss becomes 0 and eval loss
nan"; the maintainer: this conflates mixed-precision training with half-precision
training).

## How to fix it

Keep the weights in float32 and ask for mixed precision (`--fp16`/`--bf16`,
`Accelerator(mixed_precision=...)`, autocast with a GradScaler), or train an
adapter (LoRA) on the frozen fp16 model; to save memory, use bf16 mixed precision,
gradient checkpointing or an 8-bit optimizer instead of casting the weights.

## When preflight stays silent

* Mixed precision is set anywhere in the job (then a float16 model is PF422's
  "Attempting to unscale FP16 gradients"), or DeepSpeed/FSDP shards the job.
* A PEFT adapter is trained (frozen fp16 base weights are intended), the job does
  not train, or the cast is to bfloat16.
* Every Adam-like optimizer of the job sets `eps` to at least 1e-6 (`eps=1e-4`, or
  `eps=1e-4 if args.use_fp16 else 1e-8`): pure float16 training chosen on purpose,
  with the cause of its NaN losses handled (the GLIDE fine-tuning fix).

Casts read: `model.half()`, `model.to(torch.float16)`, a float16 `from_pretrained`
load, and guided-diffusion/GLIDE's `model.convert_to_fp16()`.
"""
    bad_examples = examples("preflight.rules.plan._pf579_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf579_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        plan = pctx.plan
        modes = plan.facts("precision.mode")
        casts = [f for f in modes if f.value == "fp16" and f.adapter == "pytorch" and f.source.kind != "default"]
        if not casts or any(str(f.value) in _MIXED or (f.adapter != "pytorch" and f.value != "fp32") for f in modes):
            return
        for field in ("precision.hf_fp16", "precision.hf_bf16"):
            switch = plan.resolve(field)
            if switch is not None and switch.value is True:
                return
        task = plan.resolve("task.mode")
        peft = plan.resolve("peft.method")
        sharding = plan.resolve("dist.sharding")
        if task is None or task.value not in _TRAINING or (peft is not None and peft.value != "none"):
            return
        if sharding is not None and str(sharding.value).startswith(("zero", "fsdp")):
            return
        if _eps_raised_for_fp16(pctx):
            return
        fact = casts[0]
        message = ("the trained model's weights are float16 (" + (fact.source.detail or "a 16-bit cast")
                   + ") and the job trains every one of them without mixed precision: no fp32 master copy and no "
                   "loss scaling, so small updates round to zero, gradients underflow and Adam's eps (1e-8) is 0 in "
                   "float16; the loss goes to 0 or nan within a few steps. Keep the weights float32 and train with "
                   "--fp16/--bf16 (mixed precision), or train a LoRA adapter on the fp16 model")
        finding = pctx.fact_finding(self, fact, message)
        if finding is not None:
            yield finding
