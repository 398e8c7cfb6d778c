"""PF503 fp16-and-bf16: both 16-bit modes enabled at once."""

from __future__ import annotations

from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _on(value: Any) -> bool:
    return value is True


@register
class Fp16AndBf16(PlanRule):
    code = "PF503"
    name = "fp16-and-bf16"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = "fp16 and bf16 are both enabled"
    explanation = """
## What it finds

Both 16-bit modes switched on at once: `"fp16": {"enabled": true}` and
`"bf16": {"enabled": true}` in a DeepSpeed config, or `fp16=True` and `bf16=True`
in `TrainingArguments` / `SFTConfig` (in the script or in an arguments file read
by `HfArgumentParser`).

## Why it matters

Neither framework picks one: DeepSpeed asserts ("bfloat16 and fp16 modes cannot
be simultaneously enabled") and `TrainingArguments` raises `ValueError` ("At
most one of fp16 and bf16 can be True"), after the job was queued and started.

## How to fix it

Keep one: bf16 on Ampere or newer GPUs (no loss scaling needed), fp16 on older ones.

## When preflight stays silent

* `"auto"` (filled from the TrainingArguments / Accelerate precision), one of
  the two false or absent, values preflight cannot read statically.
"""
    bad_examples = examples("preflight.rules.plan._pf50x_examples", "PF503_BAD")
    good_examples = examples("preflight.rules.plan._pf50x_examples", "PF503_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        from preflight.adapters.transformers_args import (  # off the check path
            ARG_CLASSES,
            TRAINING_KEYS,
        )

        # DeepSpeed configs (JSON, YAML block, dict built in Python): the precision facts the
        # deepspeed adapter recorded, one per enabled mode, read from the plan
        ds_configs = set()
        by_path: dict[str, dict[str, Any]] = {}
        for fact in pctx.plan.facts("precision.mode"):
            if fact.adapter == "deepspeed" and fact.source.path:
                ds_configs.add(fact.source.path)
                if fact.source.kind == "config" and fact.value in ("fp16", "bf16"):
                    by_path.setdefault(fact.source.path, {}).setdefault(fact.value, fact)
        for facts in by_path.values():
            if "fp16" in facts and "bf16" in facts:
                evidence = [e for e in (pctx.fact_evidence(facts["fp16"], "fp16 enabled"),
                                        pctx.fact_evidence(facts["bf16"], "bf16 enabled")) if e is not None]
                finding = pctx.fact_finding(
                    self, facts["bf16"],
                    "`fp16.enabled` and `bf16.enabled` are both true: DeepSpeed asserts \"bfloat16 and fp16 "
                    "modes cannot be simultaneously enabled\" at `deepspeed.initialize`. Keep one (bf16 on "
                    "Ampere or newer)", evidence=evidence)
                if finding is not None:
                    yield finding
        ds_configs.update(f.source.path for name in pctx.plan.fields() for f in pctx.plan.facts(name)
                          if f.adapter == "deepspeed" and f.source.path)
        for config in pctx.configs:
            data = config.data
            if config.path in ds_configs or not isinstance(data, dict):
                continue
            if _on(data.get("fp16")) and _on(data.get("bf16")) and sum(k in data for k in TRAINING_KEYS) > 2:
                yield pctx.config_finding(
                    self, config, ("bf16",), self._args_message("this arguments file"),
                    evidence=[pctx.config_evidence(config, ("fp16",), "fp16: true"),
                              pctx.config_evidence(config, ("bf16",), "bf16: true")])
        for script in pctx.scripts:
            idx = pctx.index(script)
            for site in idx.calls:
                q = site.qualified or ""
                if site.last not in ARG_CLASSES or not (q.startswith(("transformers.", "trl.")) or "." not in q):
                    continue
                values = {}
                for key in ("fp16", "bf16"):
                    expr = site.kwarg(key)
                    found = idx.resolve(expr) if expr is not None else None
                    values[key] = found.value if found is not None else None
                if _on(values["fp16"]) and _on(values["bf16"]):
                    expr = site.kwarg("bf16")
                    assert expr is not None
                    yield pctx.code_finding(self, script, expr, self._args_message(f"`{site.last}(...)`"))

    @staticmethod
    def _args_message(where: str) -> str:
        return (f"{where} sets both `fp16` and `bf16` to true: TrainingArguments raises ValueError \"At most "
                "one of fp16 and bf16 can be True\" before training starts. Keep one (bf16 on Ampere or newer)")
