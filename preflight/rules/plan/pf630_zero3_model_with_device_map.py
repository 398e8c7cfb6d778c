"""PF630 zero3-model-with-device-map: ``from_pretrained(..., device_map=...)`` after the
TrainingArguments enabled a ZeRO-3 DeepSpeed config: transformers raises."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import ARG_CLASSES


def _enabling_line(idx: Any, function: Optional[str]) -> Optional[int]:
    """The first line of ``function`` that enables the HF DeepSpeed integration:
    ``TrainingArguments(..., deepspeed=...)`` (or a TRL config) or ``HfDeepSpeedConfig(...)``."""
    lines = []
    for site in idx.calls:
        if site.function != function:
            continue
        if site.last == "HfDeepSpeedConfig":
            lines.append(site.line)
        elif site.last in ARG_CLASSES:
            value = next((kw.value for kw in site.call.keywords if kw.arg == "deepspeed"), None)
            if value is not None and not (isinstance(value, ast.Constant) and value.value in (None, "")):
                lines.append(site.line)
    return min(lines) if lines else None


@register
class Zero3ModelWithDeviceMap(PlanRule):
    code = "PF630"
    name = "zero3-model-with-device-map"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = ("`from_pretrained(..., device_map=...)` after TrainingArguments enabled a ZeRO-3 DeepSpeed config: "
               "transformers raises \"DeepSpeed Zero-3 is not compatible with passing a `device_map`\"")
    explanation = """
## What it finds

A job whose DeepSpeed config (given to the audit) runs ZeRO stage 3, and a script that builds its
`TrainingArguments(..., deepspeed=...)` (or a TRL config, or `HfDeepSpeedConfig(...)`) and then,
later in the same function, loads a model with `from_pretrained(..., device_map=<a literal>)`.

## Why it matters

Creating TrainingArguments with a ZeRO-3 config registers it globally
(`is_deepspeed_zero3_enabled()` is then true), and `from_pretrained` refuses any device map
under it: `if device_map is not None: if is_deepspeed_zero3_enabled(): raise ValueError("DeepSpeed
Zero-3 is not compatible with passing a `device_map`.")` (transformers
`integrations/accelerate.py`; older releases: "... with `low_cpu_mem_usage=True` or with passing
a `device_map`", accelerate issue 2543). ZeRO-3 already splits the parameters over the
processes; a device map would place whole layers on chosen devices instead.

## How to fix it

Drop `device_map` (ZeRO-3 partitions the model across the processes and loads it through
`zero.Init`), or use ZeRO-2 / no DeepSpeed if the model should be spread with a device map.

## When preflight stays silent

* The DeepSpeed config is not stage 3, or not given to the audit.
* The model is loaded before the TrainingArguments are built (PF413 reports that), or in another function (the
  order preflight can see does not say which runs first).
* `device_map` is None or not a literal.
"""
    bad_examples = examples("preflight.rules.plan._pf630_examples", "PF630_BAD")
    good_examples = examples("preflight.rules.plan._pf630_examples", "PF630_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        zero3 = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3"
                      and f.source.kind == "config" and f.adapter == "deepspeed"), None)
        if zero3 is None:
            return
        for script in pctx.scripts:
            idx = pctx.index(script)
            for site in idx.calls:
                if not isinstance(site.call.func, ast.Attribute) or site.call.func.attr != "from_pretrained":
                    continue
                expr = next((kw.value for kw in site.call.keywords if kw.arg == "device_map"), None)
                if expr is None:
                    continue
                found = idx.resolve(expr)
                if isinstance(expr, ast.Dict):
                    value: Any = "{...}"
                elif found is not None and found.value is not None and not isinstance(found.value, bool):
                    value = found.value
                else:
                    continue
                enabled = _enabling_line(idx, site.function)
                if enabled is None or enabled >= site.line:
                    continue
                message = (f"`device_map={value!r}` while ZeRO-3 is enabled (the TrainingArguments at line {enabled} "
                           "register the stage-3 DeepSpeed config): from_pretrained raises \"DeepSpeed Zero-3 is not "
                           "compatible with passing a `device_map`\" before training. Drop device_map: ZeRO-3 "
                           "already partitions the model over the processes")
                evidence = pctx.fact_evidence(zero3, "ZeRO stage 3")
                yield pctx.code_finding(self, script, expr, message,
                                        evidence=[evidence] if evidence is not None else None)
