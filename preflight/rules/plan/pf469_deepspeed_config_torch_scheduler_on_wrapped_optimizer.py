"""PF469 deepspeed-torch-scheduler-on-wrapped-optimizer: a ``torch.optim.lr_scheduler`` class named as the
DeepSpeed config's ``scheduler.type`` while ZeRO or fp16/bf16 wraps the optimizer."""

from __future__ import annotations

from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_runs import initialize_with_scheduler, runs_config

# deepspeed/runtime/lr_schedules.py: the names DeepSpeed resolves itself (looked up first)
_DEEPSPEED_SCHEDULERS = frozenset({"LRRangeTest", "OneCycle", "WarmupLR", "WarmupDecayLR", "WarmupCosineLR"})
# torch.optim.lr_scheduler classes; each one's __init__ raises "TypeError: <X> is not an Optimizer"
# for an object that is not a torch.optim.Optimizer
_TORCH_SCHEDULERS = frozenset({
    "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
    "SequentialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
    "CosineAnnealingWarmRestarts", "OneCycleLR", "PolynomialLR", "LRScheduler", "_LRScheduler",
})


def _enabled(block: Any) -> bool:
    """``{"enabled": true}`` (DeepSpeed's default for a present fp16/bf16 section is disabled)."""
    return isinstance(block, dict) and block.get("enabled") is True


def _wrapper(block: dict[str, Any]) -> str:
    """What wraps the torch optimizer in ``engine.optimizer`` for this config ('' when nothing does:
    fp32 with ZeRO stage 0, or a value left to "auto")."""
    zero = block.get("zero_optimization")
    stage = zero.get("stage") if isinstance(zero, dict) else None
    if isinstance(stage, int) and not isinstance(stage, bool) and stage >= 1:
        return f"the ZeRO stage {stage} optimizer (DeepSpeedZeroOptimizer{'_Stage3' if stage == 3 else ''})"
    if _enabled(block.get("fp16")):
        return "the fp16 optimizer wrapper (FP16_Optimizer)"
    if _enabled(block.get("bf16")) or _enabled(block.get("bfloat16")):
        return "the bf16 optimizer wrapper (BF16_Optimizer)"
    return ""


@register
class DeepSpeedTorchSchedulerOnWrappedOptimizer(PlanRule):
    code = "PF469"
    name = "deepspeed-torch-scheduler-on-wrapped-optimizer"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("A torch scheduler class as the DeepSpeed config's `scheduler.type` under ZeRO or fp16/bf16: "
               "`deepspeed.initialize` fails with \"... is not an Optimizer\"")
    explanation = """
## What it finds

A DeepSpeed config whose `scheduler.type` names a `torch.optim.lr_scheduler` class
(`CosineAnnealingLR`, `StepLR`, `OneCycleLR`, ...) rather than one of DeepSpeed's own
schedulers, in a config that also turns on ZeRO (`zero_optimization.stage` 1-3) or
`fp16`/`bf16`.

## Why it matters

The engine looks the name up in `deepspeed.runtime.lr_schedules` and, failing that, in
`torch.optim.lr_scheduler`, and builds it as `scheduler(self.optimizer, **params)`
(`_scheduler_from_config`, deepspeed/runtime/engine.py). `self.optimizer` is then the
wrapper DeepSpeed put around the torch optimizer: `DeepSpeedZeroOptimizer` (stage 1/2),
`DeepSpeedZeroOptimizer_Stage3`, `FP16_Optimizer` or `BF16_Optimizer`, none of them a
`torch.optim.Optimizer`. Every torch scheduler checks its argument, so
`deepspeed.initialize` stops with `TypeError: DeepSpeedZeroOptimizer is not an Optimizer`
(DeepSpeed issue 6992). Only a plain fp32 job without ZeRO hands the torch optimizer itself
to the scheduler.

## How to fix it

Use DeepSpeed's own schedule in the config (`WarmupCosineLR` with `total_num_steps`,
`warmup_num_steps`, `cos_min_ratio`; `WarmupDecayLR`; `OneCycle`), or drop the
`scheduler` block and build the torch scheduler on the optimizer `deepspeed.initialize`
returns (or pass `lr_scheduler=` a callable, which DeepSpeed calls with the torch optimizer).

## When preflight stays silent

* The type is one of DeepSpeed's schedulers (`WarmupLR`, `WarmupDecayLR`, `WarmupCosineLR`,
  `OneCycle`, `LRRangeTest`) or a name of neither library.
* Nothing wraps the optimizer: ZeRO stage 0 or absent and neither `fp16` nor `bf16`
  enabled (an `"auto"` value, filled in later by the HF integration, counts as unknown).
* A script that names this config passes its own `lr_scheduler=` to `deepspeed.initialize`
  (DeepSpeed 0.14.5 and later then ignore the config's block; PF527 reports the pair).
* The config is a dict built inside a script: only config files are read here.
"""
    bad_examples = examples("preflight.rules.plan._pf469_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf469_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        client = None
        for config, block, prefix in pctx.deepspeed_configs():
            scheduler = block.get("scheduler")
            kind = scheduler.get("type") if isinstance(scheduler, dict) else None
            if not isinstance(kind, str) or kind in _DEEPSPEED_SCHEDULERS or kind not in _TORCH_SCHEDULERS:
                continue
            wrapper = _wrapper(block)
            if not wrapper:
                continue
            if client is None:
                client = initialize_with_scheduler(pctx) or ()
            if client and runs_config(pctx, client[0], config):
                continue
            message = (f"the DeepSpeed config's scheduler type \"{kind}\" is a torch.optim.lr_scheduler class, not "
                       "one of DeepSpeed's schedulers: DeepSpeed builds it around the optimizer it has wrapped, "
                       f"here {wrapper}, which is not a torch.optim.Optimizer, and deepspeed.initialize fails "
                       f"with \"TypeError: ... is not an Optimizer\" (DeepSpeed issue 6992). Use a DeepSpeed "
                       "schedule (WarmupCosineLR, WarmupDecayLR, OneCycle) or drop the block and build the torch "
                       "scheduler on the optimizer deepspeed.initialize returns")
            yield pctx.config_finding(self, config, (*prefix, "scheduler", "type"), message)
