"""PF673 zero3-quantized-weights-with-bf16: ZeRO-3 ``zero_quantized_weights`` with bf16 on a pinned DeepSpeed
release whose quantizer round-trips the weights through fp16 (0.10.0 to 0.19.5)."""

from __future__ import annotations

from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_FIRST = (0, 10, 0)  # ZeRO++ (zero_quantized_weights) appears in DeepSpeedZeroConfig
_LAST_BUGGY = (0, 19, 5)  # the fix (PR 8215, commit 6098f799) is in no release up to v0.19.5


def _bf16_on(block: dict[str, Any]) -> bool:
    for key in ("bf16", "bfloat16"):
        node = block.get(key)
        if isinstance(node, dict) and node.get("enabled") is True:
            return True
    return False


@register
class Zero3QuantizedWeightsWithBf16(PlanRule):
    code = "PF673"
    name = "zero3-quantized-weights-with-bf16"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("ZeRO-3 `zero_quantized_weights` with bf16 on DeepSpeed 0.10.0-0.19.5: the quantizer reads and "
               "writes fp16, so the gathered weights come back as fp16 (wrong values, then a dtype mismatch)")
    explanation = """
## What it finds

A DeepSpeed config with `"zero_optimization": {"stage": 3, "zero_quantized_weights": true}`
and `"bf16": {"enabled": true}`, in a project that pins `deepspeed` to a release from 0.10.0
(the first with ZeRO++) to 0.19.5.

## Why it matters

ZeRO++'s quantized weight all-gather goes through `CUDAQuantizer` in
`deepspeed/runtime/zero/partition_parameters.py`, whose CUDA kernel reads its input through a
`__half*` and whose `dequantize` always allocates an fp16 output. With bf16 parameters the bf16
bits are reinterpreted as fp16 on the way in, and the gathered parameter comes back as fp16: the
values are wrong, and the bf16 model's forward then fails with a dtype mismatch (DeepSpeed issue
7775, BERT on 0.18.x). The fix (PR 8215, "Keep parameter dtype through ZeRO-3 weight
quantization", commit 6098f799) converts to fp16 for the kernel and back to the parameter's dtype;
it is in no release up to v0.19.5.

## How to fix it

Drop `zero_quantized_weights` under bf16, train in fp16, or use a DeepSpeed release that contains
PR 8215.

## When preflight stays silent

* DeepSpeed is not pinned, only bounded below, or pinned outside 0.10.0-0.19.5 (below 0.10.0
  the key itself is unknown: PF672).
* bf16 is not literally `true` (`"auto"` is filled by the HF Trainer and not resolved here), the
  stage is not 3, or `zero_quantized_weights` is not `true`.
"""
    bad_examples = examples("preflight.rules.plan._pf673_examples", "PF673_BAD")
    good_examples = examples("preflight.rules.plan._pf673_examples", "PF673_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        found = []
        for cfg, block, prefix in pctx.deepspeed_configs():
            zero = block.get("zero_optimization")
            if not isinstance(zero, dict) or zero.get("zero_quantized_weights") is not True:
                continue
            if zero.get("stage") != 3 or not _bf16_on(block):
                continue
            found.append((cfg, prefix, "bf16" if isinstance(block.get("bf16"), dict) else "bfloat16"))
        if not found:
            return
        version = pctx.version("deepspeed")
        if version is None or version.how != "pinned" or not version.at_least(*_FIRST) \
                or version.at_least(_LAST_BUGGY[0], _LAST_BUGGY[1], _LAST_BUGGY[2] + 1):
            return
        for cfg, prefix, bf16 in found:
            yield pctx.config_finding(
                self, cfg, (*prefix, "zero_optimization", "zero_quantized_weights"),
                f"ZeRO-3 quantized weights with bf16 on {version.describe()}: the weight quantizer's CUDA kernel "
                "reads and writes fp16 only, so bf16 parameters are reinterpreted as fp16 and gathered back as fp16 "
                "(wrong values, then a dtype mismatch in the bf16 forward; DeepSpeed issue 7775, fixed by PR 8215 "
                "after v0.19.5). Drop zero_quantized_weights under bf16 or train in fp16",
                evidence=[pctx.config_evidence(cfg, (*prefix, bf16, "enabled"), "bf16 is enabled here")])
