"""PF422 fp16-weights-with-grad-scaling: trainable weights in float16 under fp16 loss scaling."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import (
    call_last,
    fp16_training_signals,
    is_fp16_dtype,
    names_called,
)
from preflight.rules.base import Rule, examples


def _fp16_weights(ctx: FileContext) -> Optional[tuple[ast.AST, str]]:
    for call in ctx.nodes(ast.Call):
        last = call_last(call)
        if last == "from_pretrained":
            for key in ("torch_dtype", "dtype"):
                expr = kwarg(call, key)
                if is_fp16_dtype(expr):
                    if kwarg(call, "quantization_config") is not None or kwarg(call, "load_in_4bit") is not None \
                            or kwarg(call, "load_in_8bit") is not None:
                        return None
                    return expr, "loaded in float16"  # type: ignore[return-value]
        elif last == "half" and isinstance(call.func, ast.Attribute) and not call.args:
            return call, "cast with `.half()`"
    return None


@register
class Fp16WeightsWithGradScaling(Rule):
    code = "PF422"
    needs_text = ('TrainingArguments', 'SFTConfig', 'DPOConfig', 'GRPOConfig', 'Accelerator', 'Trainer', 'GradScaler')
    name = "fp16-weights-with-grad-scaling"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("transformers", "accelerate", "lightning", "pytorch")
    summary = "Trainable weights are float16 while fp16 mixed precision scales the gradients"
    explanation = """
## What it finds

A model loaded with `torch_dtype=torch.float16` (or cast with `.half()`) in a
file that trains it with fp16 mixed precision: `TrainingArguments(fp16=True)`,
`Accelerator(mixed_precision="fp16")`, Lightning `precision=16`, or a
`GradScaler`.

## Why it matters

Mixed precision keeps the weights in float32 and scales the loss; the scaler
refuses to unscale gradients of float16 parameters: `ValueError: Attempting to
unscale FP16 gradients` at the first optimizer step (transformers issue 23165,
Lightning issue 5140). Without a scaler, pure fp16 weights lose small updates to
rounding.

## How to fix it

Load the trainable weights in float32 (`torch_dtype=torch.float32`, or leave it
out) and let autocast run the forward in fp16; or train in bf16.

## When preflight stays silent

* 4-/8-bit quantized loads (QLoRA: the adapters are float32).
* A PEFT model whose adapters are created in float32 and no module is trained in
  full (`modules_to_save` copies a float16 layer, so it is flagged).
"""
    bad_examples = examples("preflight.rules.code._pf414_examples", "PF422_BAD")
    good_examples = examples("preflight.rules.code._pf414_examples", "PF422_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        found = _fp16_weights(ctx)
        if found is None:
            return
        signals = fp16_training_signals(ctx)
        if not signals:
            return
        if "get_peft_model" in names_called(ctx) and "modules_to_save" not in ctx.parsed.source.text:
            return
        node, how = found
        signal, what = signals[0]
        yield ctx.finding(
            self, node,
            f"the weights are {how} and trained under {what}: fp16 mixed precision expects float32 weights and "
            "the gradient scaler raises \"Attempting to unscale FP16 gradients\" at the first step. Load the "
            "trainable weights in float32 (autocast still runs the forward in fp16) or train in bf16",
            evidence=[ctx.evidence(signal, f"{what} scales the gradients")])
