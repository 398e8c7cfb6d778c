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
    bad_examples = examples("preflight.rules.plan._pf503_examples", "PF503_BAD")
    good_examples = examples("preflight.rules.plan._pf503_examples", "PF503_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        # DeepSpeed configs (JSON, YAML block, dict built in Python): the precision facts the
        # deepspeed adapter recorded, one per enabled mode and config file
        by_path: dict[str, dict[str, Any]] = {}
        for fact in pctx.plan.facts("precision.mode"):
            if fact.adapter == "deepspeed" and fact.source.path and fact.source.kind == "config" \
                    and fact.value in ("fp16", "bf16"):
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
        # TrainingArguments / SFTConfig calls and arguments files: the adapters record both keys of
        # one setting as a pair of precision.fp16_and_bf16 facts (the fp16 key's, then the bf16 key's)
        pairs = [f for f in pctx.plan.facts("precision.fp16_and_bf16") if f.value is True]
        for fp16, bf16 in zip(pairs[0::2], pairs[1::2]):
            where = "this arguments file" if bf16.source.kind == "config" else "this `TrainingArguments(...)` call"
            both = [e for e in (pctx.fact_evidence(fp16, "fp16: true"), pctx.fact_evidence(bf16, "bf16: true"))
                    if e is not None] if bf16.source.kind == "config" else None
            finding = pctx.fact_finding(self, bf16, self._args_message(where), evidence=both)
            if finding is not None:
                yield finding

    @staticmethod
    def _args_message(where: str) -> str:
        return (f"{where} sets both `fp16` and `bf16` to true: TrainingArguments raises ValueError \"At most "
                "one of fp16 and bf16 can be True\" before training starts. Keep one (bf16 on Ampere or newer)")
