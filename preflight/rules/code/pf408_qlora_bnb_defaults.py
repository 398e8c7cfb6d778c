"""PF408 qlora-bnb-defaults: 4-bit BitsAndBytesConfig left on the fp4 / float32 defaults."""

from __future__ import annotations

from typing import Iterable

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, has_unpacking, is_from, kwarg, literal
from preflight.rules.base import Rule, examples


@register
class QloraBnbDefaults(Rule):
    code = "PF408"
    needs_text = ('BitsAndBytesConfig',)
    name = "qlora-bnb-defaults"
    severity = Severity.WARNING
    category = Category.PERFORMANCE
    frameworks = ("transformers", "peft")
    summary = "A 4-bit `BitsAndBytesConfig` keeps the fp4 quant type or the float32 compute dtype defaults"
    explanation = """
## What it finds

`BitsAndBytesConfig(load_in_4bit=True, ...)` without `bnb_4bit_quant_type` (the
default is `"fp4"`) or without `bnb_4bit_compute_dtype` (the default is
`torch.float32`).

## Why it matters

The QLoRA recipe is NF4 weights computed in bfloat16
(`bnb_4bit_quant_type="nf4"`, `bnb_4bit_compute_dtype=torch.bfloat16`, often
with `bnb_4bit_use_double_quant=True`). The defaults give FP4 weights, which
quantise normally distributed weights worse than NF4, and dequantise every
4-bit matrix to float32 for each matmul: slower, and float32 activations take
twice the memory of bfloat16 ones. Nothing warns; the fine-tune is just worse
and slower than the one the recipe describes.

## How to fix it

```python
BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                   bnb_4bit_compute_dtype=torch.bfloat16, bnb_4bit_use_double_quant=True)
```

## When preflight stays silent

* Both keys are given (whatever their values: an explicit `"fp4"` is a choice).
* `load_in_8bit=True` (no 4-bit types involved) or `load_in_4bit` not known to be True.
* Keys passed with `**kwargs`, or a `BitsAndBytesConfig` from another library.
"""
    bad_examples = examples("preflight.rules.code._pf41x_examples", "PF408_BAD")
    good_examples = examples("preflight.rules.code._pf41x_examples", "PF408_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            if not is_from(qual, "transformers", "BitsAndBytesConfig") or has_unpacking(call):
                continue
            if literal(ctx, kwarg(call, "load_in_4bit")) is not True:
                continue
            missing = []
            if kwarg(call, "bnb_4bit_quant_type") is None:
                missing.append("`bnb_4bit_quant_type` (default \"fp4\", not the QLoRA \"nf4\")")
            if kwarg(call, "bnb_4bit_compute_dtype") is None:
                missing.append("`bnb_4bit_compute_dtype` (default float32: every 4-bit matmul is "
                               "dequantised to float32)")
            if not missing:
                continue
            message = (
                "This 4-bit quantization config keeps the bitsandbytes defaults for "
                + " and ".join(missing)
                + ": slower and less accurate than the QLoRA recipe. Set "
                "`bnb_4bit_quant_type=\"nf4\"` and `bnb_4bit_compute_dtype=torch.bfloat16`")
            yield ctx.finding(self, call, message,
                              evidence=[ctx.evidence(call, "4-bit BitsAndBytesConfig with default types")])
