"""PF641 warmup-scheduler-first-step-default-lr: a DeepSpeed optimizer block without ``lr`` whose learning
rate comes only from a Warmup* scheduler, on DeepSpeed before 0.15.3: the first step runs at the
optimizer's default learning rate."""

from __future__ import annotations

from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# the schedulers whose constructors set the optimizer's lr only from DeepSpeed 0.15.3 (PR 6597; read in
# deepspeed/runtime/lr_schedules.py, v0.15.1 against v0.15.3)
_WARMUPS = frozenset({"WarmupLR", "WarmupDecayLR", "WarmupCosineLR"})


def _has_lr(params: Any) -> bool:
    return isinstance(params, dict) and any(k in params for k in ("lr", "learning_rate"))


@register
class WarmupSchedulerFirstStepDefaultLr(PlanRule):
    code = "PF641"
    name = "warmup-scheduler-first-step-default-lr"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("A DeepSpeed optimizer block without `lr` under a Warmup* scheduler on DeepSpeed < 0.15.3: the "
               "first optimizer step runs at the optimizer's default learning rate (1e-3)")
    explanation = """
## What it finds

A DeepSpeed config whose `optimizer` block gives no `lr` in its `params` and whose
`scheduler` is `WarmupLR`, `WarmupDecayLR` or `WarmupCosineLR`, in a project that pins
`deepspeed` to a release before 0.15.3. Reported on the optimizer's `params` line.

## Why it matters

Before 0.15.3 these schedulers did not set the optimizer's learning rate when they were
built; DeepSpeed steps the scheduler after `optimizer.step()`, so the first update runs at
whatever rate the optimizer was built with. Without `lr` in the block that is the
optimizer's default, 1e-3 for Adam/AdamW: for a full fine-tune with a 2e-5 peak the first
step is 50x the peak and far above `warmup_min_lr`, enough to throw pretrained weights off
before the warm-up starts (DeepSpeed issue 6569, "The learning rate scheduler is being
ignored in the first optimization step"; fixed by PR 6597 in 0.15.3, whose constructors
call `update_lr` with the schedule's first value).

## How to fix it

Upgrade to DeepSpeed 0.15.3 or later, or give the optimizer block the warm-up's start
value as `lr` (`warmup_min_lr`, or a small value when that is 0).

## When preflight stays silent

* `deepspeed` is not pinned (`==`), or pinned to 0.15.3 or later.
* The optimizer block has `lr` (the first step then runs at that rate, the configured value).
* The scheduler is another type, or there is no optimizer or scheduler block.
"""
    bad_examples = examples("preflight.rules.plan._pf641_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf641_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for config, block, prefix in pctx.deepspeed_configs():
            optimizer = block.get("optimizer")
            scheduler = block.get("scheduler")
            if not isinstance(optimizer, dict) or not isinstance(scheduler, dict):
                continue
            kind = scheduler.get("type")
            if kind not in _WARMUPS or _has_lr(optimizer.get("params")):
                continue
            version = pctx.version("deepspeed")
            if version is None or version.how != "pinned" or version.at_least(0, 15, 3):
                continue
            where = (*prefix, "optimizer", "params") if isinstance(optimizer.get("params"), dict) \
                else (*prefix, "optimizer")
            opt = optimizer.get("type", "the optimizer")
            yield pctx.config_finding(
                self, config, where,
                f"the `{opt}` optimizer block gives no `lr`, and on {version.describe()} `{kind}` does not set "
                "the optimizer's learning rate when it is built (DeepSpeed steps the scheduler after "
                "`optimizer.step()`): the first update runs at the optimizer's default learning rate, 1e-3 for "
                "Adam/AdamW, instead of the warm-up's start value (DeepSpeed issue 6569, fixed in 0.15.3). "
                "Upgrade to 0.15.3+, or set `lr` to the warm-up start value",
                evidence=[pctx.config_evidence(config, (*prefix, "scheduler", "type"),
                                               f"the learning rate comes only from `{kind}`")])
