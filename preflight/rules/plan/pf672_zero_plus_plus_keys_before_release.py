"""PF672 zero-plus-plus-keys-before-release: ZeRO++ keys in a DeepSpeed config while the project pins a
DeepSpeed release older than 0.10.0, whose ZeRO config forbids unknown fields."""

from __future__ import annotations

from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_ZERO_PP = ("zero_hpz_partition_size", "zero_quantized_weights", "zero_quantized_gradients")
_FIRST = (0, 10, 0)  # DeepSpeedZeroConfig has the three fields from v0.10.0 (absent in v0.9.5)


@register
class ZeroPlusPlusKeysBeforeRelease(PlanRule):
    code = "PF672"
    name = "zero-plus-plus-keys-before-release"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("ZeRO++ keys (`zero_hpz_partition_size`, `zero_quantized_weights`, `zero_quantized_gradients`) "
               "in a DeepSpeed config while the project pins DeepSpeed below 0.10.0: \"extra fields not permitted\"")
    explanation = """
## What it finds

A DeepSpeed config whose `zero_optimization` block sets `zero_hpz_partition_size`,
`zero_quantized_weights` or `zero_quantized_gradients` (the ZeRO++ options), in a project that
pins `deepspeed` to a release below 0.10.0 (`deepspeed==0.9.5` in `requirements.txt`).

## Why it matters

The three fields are defined in `DeepSpeedZeroConfig` (`deepspeed/runtime/zero/config.py`) from
v0.10.0; v0.9.5 and earlier do not have them, and `DeepSpeedConfigModel` is a pydantic model with
`extra = "forbid"` (`deepspeed/runtime/config_utils.py`). `deepspeed.initialize` (or the HF
Trainer's DeepSpeed integration) then fails with "ValidationError: 3 validation errors for
DeepSpeedZeroConfig ... extra fields not permitted" (DeepSpeed issue 3827, on 0.9.5).

## How to fix it

Require `deepspeed>=0.10.0`, or drop the ZeRO++ keys.

## When preflight stays silent

* DeepSpeed is not pinned, or pinned at 0.10.0 or later, or only bounded below (a newer one installs).
* The keys are absent from `zero_optimization`.
"""
    bad_examples = examples("preflight.rules.plan._pf672_examples", "PF672_BAD")
    good_examples = examples("preflight.rules.plan._pf672_examples", "PF672_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        found = []
        for cfg, block, prefix in pctx.deepspeed_configs():
            zero = block.get("zero_optimization")
            if isinstance(zero, dict):
                keys = [k for k in _ZERO_PP if k in zero]
                if keys:
                    found.append((cfg, prefix, keys))
        if not found:
            return
        version = pctx.version("deepspeed")
        if version is None or version.how != "pinned" or version.at_least(*_FIRST):
            return
        for cfg, prefix, keys in found:
            first, rest = keys[0], keys[1:]
            others = f" (and {', '.join(rest)})" if rest else ""
            yield pctx.config_finding(
                self, cfg, (*prefix, "zero_optimization", first),
                f"`{first}`{others} is a ZeRO++ option that {version.describe()} does not know: DeepSpeedZeroConfig "
                "has these fields from 0.10.0 and forbids extra fields, so initialisation fails with \"validation "
                "errors for DeepSpeedZeroConfig ... extra fields not permitted\". Require deepspeed>=0.10.0 or drop "
                "the ZeRO++ keys")
