"""PF166 int8-kernel-injection-without-quantized-checkpoint: ``deepspeed.init_inference(dtype=torch.int8,
replace_with_kernel_inject=True)`` on a model whose weights were not loaded from a DeepSpeed int8 checkpoint."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import Rule, examples


def _int8(expr: Optional[ast.AST]) -> bool:
    """``torch.int8`` / ``"int8"``: the dtype DeepSpeed reads as its int8 quantized kernels."""
    if isinstance(expr, ast.Attribute):
        return expr.attr == "int8"
    return isinstance(expr, ast.Constant) and expr.value == "int8"


def _true(expr: Optional[ast.AST]) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is True


def _given(expr: Optional[ast.AST]) -> bool:
    """A ``checkpoint=`` that may name a checkpoint (anything but a missing one or ``None``)."""
    return expr is not None and not (isinstance(expr, ast.Constant) and expr.value is None)


def _settings(call: ast.Call) -> Optional[dict[str, Optional[ast.expr]]]:
    """The keyword arguments and the literal ``config={...}`` keys of the call; None when some are hidden."""
    if any(k.arg is None for k in call.keywords) or len(call.args) > 1:
        return None
    out: dict[str, Optional[ast.expr]] = {k.arg: k.value for k in call.keywords if k.arg}
    config = out.pop("config", None)
    if config is not None:
        if not isinstance(config, ast.Dict) or any(k is None for k in config.keys):
            return None
        for key, value in zip(config.keys, config.values):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                out.setdefault(key.value, value)
    return out


@register
class Int8KernelInjectionWithoutQuantizedCheckpoint(Rule):
    code = "PF166"
    name = "int8-kernel-injection-without-quantized-checkpoint"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("`deepspeed.init_inference(dtype=torch.int8, replace_with_kernel_inject=True)` without a DeepSpeed "
               "int8 checkpoint: the injected int8 kernels run on weights that were never quantized for them and "
               "fail (wrong shapes, illegal memory access) or generate garbage")
    frameworks = ("deepspeed",)
    needs_text = ("init_inference",)
    explanation = """
## What it finds

A `deepspeed.init_inference(...)` call with `dtype=torch.int8` (or `"int8"`) and
`replace_with_kernel_inject=True` (as keyword arguments or keys of a literal `config={...}`),
with no `checkpoint=` (or `checkpoint=None`): the model's weights come from the module as it was
loaded (`from_pretrained`, `load_state_dict`), not from a DeepSpeed int8 checkpoint description.

## Why it matters

DeepSpeed's injected inference kernels serve int8 from checkpoints quantized for them (the
tutorial's int8 path and the BLOOM scripts load `microsoft/bloom-deepspeed-inference-int8` through
`checkpoint=`). Given plain fp16/fp32 weights, the int8 path breaks: BLOOM fails in
`ds_attention.compute_attention` with "RuntimeError: shape '[9, 22, 32, 240]' is invalid for input
of size 506880" while `dtype=torch.half` works (DeepSpeed issue 2923); GPT-J raises "CUDA error: an
illegal memory access was encountered" ("replace_with_kernel_inject=True conflict with
dtype=torch.int8", issue 2956, still reported in 2024); recent releases refuse it outright
("ValueError: Data type torch.int8 is not supported", issue 8577).

## How to fix it

Serve the weights in half precision (`dtype=torch.half`) with kernel injection, or pass
`checkpoint=` a DeepSpeed int8 checkpoint description made for these kernels, or quantize with a
library that owns its int8 path (bitsandbytes `load_in_8bit`) and keep
`replace_with_kernel_inject=False`.

## When preflight stays silent

* `checkpoint=` is given (anything but `None`): a pre-quantized checkpoint may be loaded.
* `quantization_setting=` is given: the MoQ path, whose model was trained quantization-aware for these
  kernels (DeepSpeedExamples training/MoQ/run_glue.py loads its state dict, then
  `init_inference(model, dtype=torch.int8, quantization_setting=8)`).
* The dtype is not the int8 literal (`torch.half`, a variable, `getattr(torch, name)`).
* `replace_with_kernel_inject` is not the literal `True` (AutoTP keeps the HF modules).
* The call's settings are hidden (`**kwargs`, a config variable or file).
"""
    bad_examples = examples("preflight.rules.code._pf166_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf166_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            if not (qual == "deepspeed.init_inference" or (qual.startswith("deepspeed.")
                                                            and qual.endswith(".init_inference"))):
                continue
            settings = _settings(call)
            if settings is None:
                continue
            dtype = settings.get("dtype")
            if dtype is None or not _int8(dtype) or not _true(settings.get("replace_with_kernel_inject")) \
                    or _given(settings.get("checkpoint")) or _given(settings.get("quantization_setting")):
                continue
            yield ctx.finding(
                self, call,
                "`init_inference` asks for DeepSpeed's injected int8 kernels (`dtype="
                f"{ast.unparse(dtype)}`, `replace_with_kernel_inject=True`) without a DeepSpeed int8 `checkpoint=`: "
                "the kernels run on the module's unquantized weights and fail at the first forward (\"shape ... is "
                "invalid for input of size\", illegal memory access; DeepSpeed issues 2923, 2956) or are refused by "
                "recent releases; serve with `dtype=torch.half`, or load a DeepSpeed int8 checkpoint",
                evidence=[ctx.evidence(dtype, "int8 with kernel injection")])
