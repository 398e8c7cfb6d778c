"""PF528 warmup-max-lr-default: a DeepSpeed warmup schedule without ``warmup_max_lr`` over an optimizer ``lr``."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_DEFAULT_MAX_LR = 0.001
# WarmupLR took the optimizer's rate as its default peak from this DeepSpeed release (PR 7360)
_WARMUPLR_FIXED = (0, 17, 2)


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


@register
class WarmupMaxLrDefault(PlanRule):
    code = "PF528"
    name = "warmup-max-lr-default"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = "A DeepSpeed `WarmupLR`/`WarmupDecayLR` without `warmup_max_lr` replaces the optimizer's `lr` with 0.001"
    explanation = """
## What it finds

A DeepSpeed config whose `scheduler` is `WarmupDecayLR` or `WarmupLR` with no
`warmup_max_lr` in its `params`, while the config's `optimizer.params.lr` is a number
other than 0.001.

## Why it matters

DeepSpeed's warmup schedules write their own rate into the optimizer on every step,
rising to `warmup_max_lr`, whose default is 0.001 (`WarmupDecayLR` to this day;
`WarmupLR` before DeepSpeed 0.17.2, PR 7360). The optimizer's `lr` is then only the
rate of the very first step: a run configured at 5e-7 trains at 1e-3, 2000 times the
rate asked for, and diverges or forgets (DeepSpeed issue 7303: "I set the learning rate
of AdamW optimizer at 1e-5, but this setting will be overrided by the default max_lrs
values (0.001)").

## How to fix it

Set `"warmup_max_lr"` to the optimizer's `lr` (under the HF Trainer, `"auto"`).

## When preflight stays silent

* `warmup_max_lr` is given (any value, `"auto"` included), or the optimizer's `lr` is not a
  number in the config (`"auto"`, a client optimizer), or it is 0.001.
* The schedule is `WarmupLR` and the project declares DeepSpeed 0.17.2 or later.
"""
    bad_examples = examples("preflight.rules.plan._pf527_examples", "PF528_BAD")
    good_examples = examples("preflight.rules.plan._pf527_examples", "PF528_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for config, block, prefix in pctx.deepspeed_configs():
            sched, opt = block.get("scheduler"), block.get("optimizer")
            if not (isinstance(sched, dict) and isinstance(opt, dict)):
                continue
            kind = sched.get("type")
            if kind not in ("WarmupLR", "WarmupDecayLR"):
                continue
            raw_params, raw_opt = sched.get("params"), opt.get("params")
            params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
            opt_params: dict[str, Any] = raw_opt if isinstance(raw_opt, dict) else {}
            lr = _number(opt_params.get("lr"))
            if "warmup_max_lr" in params or lr is None or lr == _DEFAULT_MAX_LR:
                continue
            when = ""
            if kind == "WarmupLR":
                found = pctx.version("deepspeed")
                if found is not None and found.at_least(*_WARMUPLR_FIXED):
                    continue
                when = (" (WarmupLR before DeepSpeed 0.17.2; " + ("the project declares " + found.describe()
                        if found is not None else "no DeepSpeed version is declared") + ")")
            key = (*prefix, "scheduler", "params") if "params" in sched else (*prefix, "scheduler")
            yield pctx.config_finding(
                self, config, key,
                f"{kind} has no `warmup_max_lr`, whose default is 0.001{when}: the schedule writes its rate "
                f"into the optimizer on every step and rises to 0.001, not to the optimizer's lr of {lr:g}, so "
                f"training runs at {_DEFAULT_MAX_LR / lr:.3g} times the configured rate after warmup. Set "
                "\"warmup_max_lr\" to the optimizer's lr",
                evidence=[pctx.config_evidence(config, (*prefix, "optimizer", "params", "lr"),
                                               f"the optimizer's lr is {lr:g}")])
