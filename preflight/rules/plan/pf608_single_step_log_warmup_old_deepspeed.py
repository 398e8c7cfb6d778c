"""PF608 single-step-log-warmup-old-deepspeed: ``warmup_num_steps`` of 0 or 1 in a DeepSpeed warmup
schedule under a pinned DeepSpeed older than 0.3.12 (``1 / log(1)``)."""

from __future__ import annotations

from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# deepspeed PR 772 ("[WarmupDecayLR] fix log(0) & 1/log(1) bugs", commit 18a26f3f, first in v0.3.12)
# clamps the step count with max(2, warmup_num_steps)
_FIXED = (0, 3, 12)


@register
class SingleStepLogWarmupOldDeepSpeed(PlanRule):
    code = "PF608"
    name = "single-step-log-warmup-old-deepspeed"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("`warmup_num_steps` of 0 or 1 in a DeepSpeed `WarmupLR`/`WarmupDecayLR` with DeepSpeed "
               "pinned below 0.3.12: `1 / log(1)` fails in `deepspeed.initialize`")
    explanation = """
## What it finds

A DeepSpeed config whose `scheduler` is `WarmupLR` or `WarmupDecayLR` with
`params.warmup_num_steps` of 0 or 1, in a project that pins DeepSpeed (`deepspeed==0.3.10`
in a requirements file, for example) to a release before 0.3.12.

## Why it matters

Before 0.3.12 the warmup schedules computed `self.inverse_log_warm_up = 1.0 /
math.log(warmup_num_steps)` in their constructor: one step gives `1 / log(1)`, and
`deepspeed.initialize` stops with "ZeroDivisionError: float division by zero"; zero
steps give "ValueError: math domain error". DeepSpeed PR 772 ("fix log(0) & 1/log(1)
bugs", first released in 0.3.12) clamps the count with `max(2, warmup_num_steps)`.
A config that asks for no warmup therefore kills the job at start-up on the pinned
release.

## How to fix it

Use at least 2 warmup steps, drop the warmup (a constant rate needs no scheduler, or
`"warmup_type": "linear"` still needs 2 steps there), or upgrade DeepSpeed to 0.3.12 or later.

## When preflight stays silent

* `warmup_num_steps` is 2 or more, `"auto"` or not a number.
* No DeepSpeed version is pinned, or the pin (or lower bound) is 0.3.12 or later: later
  releases clamp the value.
"""
    bad_examples = examples("preflight.rules.plan._pf608_examples", "PF608_BAD")
    good_examples = examples("preflight.rules.plan._pf608_examples", "PF608_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = pctx.deepspeed_configs()
        if not configs:
            return
        found = pctx.version("deepspeed")
        if found is None or found.how != "pinned" or found.at_least(*_FIXED):
            return
        for config, block, prefix in configs:
            sched = block.get("scheduler")
            if not isinstance(sched, dict) or sched.get("type") not in ("WarmupLR", "WarmupDecayLR"):
                continue
            params: Any = sched.get("params")
            steps = params.get("warmup_num_steps") if isinstance(params, dict) else None
            if isinstance(steps, bool) or not isinstance(steps, int) or steps not in (0, 1):
                continue
            error = "ZeroDivisionError: float division by zero" if steps == 1 else "ValueError: math domain error"
            yield pctx.config_finding(
                self, config, (*prefix, "scheduler", "params", "warmup_num_steps"),
                f"{sched.get('type')} with warmup_num_steps={steps} under {found.describe()}: before DeepSpeed "
                f"0.3.12 the schedule computes 1.0 / math.log(warmup_num_steps) when it is built, so "
                f"deepspeed.initialize fails with \"{error}\". Use at least 2 warmup steps or DeepSpeed >= 0.3.12")
