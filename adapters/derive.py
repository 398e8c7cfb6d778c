"""Facts derived from other facts once every adapter has run: the semantics that no single
adapter can see because they combine a framework with a config another adapter read.

- DeepSpeed precision: under DeepSpeed, ``bf16``/``fp16`` (the DeepSpeed config's, or the
  Trainer's ``--bf16``/``--fp16`` and accelerate's ``mixed_precision`` that fill its
  ``"auto"``) means 16-bit weights with fp32 master copies in the optimizer, not autocast
  (DeepSpeed ``bf16``/``fp16`` engine; frameworks.md §1.4). An ``amp_bf16``/``amp_fp16``
  fact is turned into ``bf16``/``fp16`` with the reason.
"""

from __future__ import annotations

from preflight.plan import Source, TrainingPlan

_ZERO = ("zero1", "zero2", "zero3")
_AMP_TO_DS = {"amp_bf16": "bf16", "amp_fp16": "fp16"}


def uses_deepspeed(plan: TrainingPlan) -> bool:
    sharding = plan.resolve("dist.sharding")
    if sharding is not None and sharding.value in _ZERO:
        return True
    return any(f.adapter == "deepspeed" for name in plan.fields() for f in plan.facts(name))


def derive(plan: TrainingPlan) -> None:
    _deepspeed_precision(plan)


def _deepspeed_precision(plan: TrainingPlan) -> None:
    winner = plan.resolve("precision.mode")
    if winner is None or winner.value not in _AMP_TO_DS or not uses_deepspeed(plan):
        return
    mode = _AMP_TO_DS[winner.value]
    where = winner.source.location() if winner.source.path else f"{winner.source.kind} {winner.source.key or ''}"
    plan.add("precision.mode", mode,
             Source("derived", winner.source.path, winner.source.line, winner.source.key,
                    f"{winner.value} ({where.strip()}) under DeepSpeed: the engine keeps {mode} weights with fp32 "
                    "master copies (not autocast)"),
             winner.confidence, adapter="derive", priority=max(1, winner.priority + 1))
