"""PF594 fp16-weights-trained-without-mixed-precision: a model loaded in float16 is fully fine-tuned
by a Trainer with neither ``fp16`` nor ``bf16``: pure half-precision AdamW."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import has_unpacking, kwarg
from preflight.rules._pf414_support import call_last, is_fp16_dtype, names_called
from preflight.rules.base import Rule, examples

_ARGS = frozenset({"TrainingArguments", "Seq2SeqTrainingArguments"})
# the base is not what trains (adapters, quantized weights, frozen layers): PF422 judges those
_PARTIAL = ("get_peft_model", "peft_config", "LoraConfig", "PeftModel", "prepare_model_for_kbit_training",
            "requires_grad_(False)", "requires_grad = False", "requires_grad=False", "load_in_8bit", "load_in_4bit",
            "quantization_config")


def _fp16_load(ctx: FileContext) -> Optional[ast.AST]:
    """The ``torch_dtype=``/``dtype=`` float16 argument of a ``from_pretrained`` of the file."""
    for call in ctx.nodes(ast.Call):
        if call_last(call) != "from_pretrained":
            continue
        for key in ("torch_dtype", "dtype"):
            value = kwarg(call, key)
            if value is not None and is_fp16_dtype(value):
                return value
    return None


def _plain_precision_args(ctx: FileContext) -> Optional[ast.Call]:
    """The file's one TrainingArguments call when it asks for no mixed precision (no ``fp16``,
    ``bf16``, ``half_precision_backend``, no ``**kwargs``)."""
    found = [c for c in ctx.nodes(ast.Call) if call_last(c) in _ARGS]
    if len(found) != 1 or has_unpacking(found[0]):
        return None
    call = found[0]
    for key in ("fp16", "bf16", "half_precision_backend", "fp16_backend", "tf32"):
        if kwarg(call, key) is not None:
            return None
    return call


@register
class Fp16WeightsTrainedWithoutMixedPrecision(Rule):
    code = "PF594"
    needs_text = ("float16",)
    name = "fp16-weights-trained-without-mixed-precision"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("transformers",)
    summary = ("A model loaded in float16 is fine-tuned in full by a Trainer without fp16/bf16: pure half-precision "
               "AdamW, no master weights, no loss scaling; the loss goes to NaN")
    explanation = """
## What it finds

`from_pretrained(..., torch_dtype=torch.float16)` (or `dtype=`) in a file whose one
`TrainingArguments(...)` sets neither `fp16` nor `bf16`, and that trains the whole model: no
PEFT wrap, no quantized load, no frozen weights.

## Why it matters

Without `fp16=True`/`bf16=True` the Trainer runs no autocast and no GradScaler: the forward,
the gradients and AdamW's update all happen in float16 on the float16 weights. There is no
float32 master copy, so updates smaller than the weights' float16 spacing are lost; AdamW's
`eps=1e-8` is below float16's smallest normal number, and the gradients are not scaled, so
small ones flush to zero while large activations overflow. The loss goes to NaN and the
accuracy stays at chance (ageron/handson-mlp#36: "resolved the problem by commenting out the
dtype=torch.float16 ... and adding type casting using the TrainingArguments").

## How to fix it

Load in float32 (drop `torch_dtype`) and set `fp16=True` (or `bf16=True`) in the
TrainingArguments: mixed precision computes in half precision and keeps float32 master
weights.

## When preflight stays silent

* The TrainingArguments set `fp16`/`bf16` (PF422 judges float16 weights under fp16 AMP) or
  are unpacked from `**kwargs`, or the file builds no or several TrainingArguments.
* The file trains adapters or part of the model (`get_peft_model`, `peft_config`,
  `LoraConfig`, `requires_grad_(False)`) or loads quantized weights.
"""
    bad_examples = examples("preflight.rules.code._pf594_examples", "PF594_BAD")
    good_examples = examples("preflight.rules.code._pf594_examples", "PF594_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = ctx.parsed.source.text
        if any(marker in text for marker in _PARTIAL):
            return
        called = names_called(ctx)
        if not called & {"Trainer", "Seq2SeqTrainer"} or not called & _ARGS:
            return
        load = _fp16_load(ctx)
        if load is None:
            return
        args = _plain_precision_args(ctx)
        if args is None:
            return
        yield ctx.finding(
            self, load,
            "the model is loaded in float16 and the Trainer fine-tunes every weight with neither `fp16` nor `bf16` in "
            "its TrainingArguments: no autocast, no float32 master weights and no loss scaling, so AdamW updates "
            "float16 weights directly (small updates are lost, eps=1e-8 underflows) and the loss goes to NaN. Load "
            "in float32 and set `fp16=True` (or `bf16=True`)",
            evidence=[ctx.evidence(args, "TrainingArguments without fp16/bf16")])
