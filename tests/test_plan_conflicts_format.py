"""A 16-bit format said two ways is not a conflict (issue 15): TrainingArguments(bf16=True)
(amp_bf16) and the DeepSpeed engine's bf16 it turns into; a real disagreement still shows."""

from __future__ import annotations

from preflight.audit import format_plan_text
from preflight.plan import Source, TrainingPlan


def _plan(*facts: tuple) -> TrainingPlan:
    plan = TrainingPlan()
    for value, source, adapter, priority in facts:
        plan.add("precision.mode", value, source, "high", adapter=adapter, priority=priority)
    return plan


TRAINER_BF16 = ("amp_bf16", Source("cli", None, None, "--bf16", "--bf16 True"), "transformers", 0)
DS_BF16 = ("bf16", Source("config", "ds.json", 3, "bf16.enabled", "bf16 auto, filled by --bf16"), "deepspeed", 0)
DERIVED = ("bf16", Source("derived", None, None, "--bf16", "amp_bf16 under DeepSpeed"), "derive", 1)


def test_trainer_bf16_and_deepspeed_bf16_are_one_format():
    plan = _plan(TRAINER_BF16, DS_BF16, DERIVED)
    assert plan.conflicts() == {}
    text = format_plan_text(plan)
    assert "0 with conflicting values" in text and "! conflict" not in text
    assert "= same format" in text and "Conflicts" not in text


def test_fp16_against_bf16_is_still_a_conflict():
    fp16 = ("amp_fp16", Source("config", "accelerate.yaml", 9, "mixed_precision", "mixed_precision: fp16"),
            "accelerate", 0)
    plan = _plan(fp16, TRAINER_BF16, DERIVED)
    assert set(plan.conflicts()) == {"precision.mode"}
    text = format_plan_text(plan)
    assert "1 with conflicting values" in text
    assert "! conflict" in text and "accelerate.yaml:9" in text
