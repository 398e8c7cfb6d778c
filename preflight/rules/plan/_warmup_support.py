"""Helpers of PF183/PF184 (det121): the TrainingArguments scheduler name, and whether the job builds its
own scheduler (then ``lr_scheduler_type`` and the warmup settings are not what runs)."""

from __future__ import annotations

from typing import Any, Optional

from preflight.plan_rules import PlanContext
from preflight.rules.plan._pf508_support import known

# a scheduler of the job's own replaces the one lr_scheduler_type names
_OWN_SCHEDULER = ("def create_scheduler", "def create_optimizer_and_scheduler", "optimizers=(", "optimizers=[")
_NAMES = {"constant": "constant", "reduce_on_plateau": "reduce_lr_on_plateau",
          "reduce_lr_on_plateau": "reduce_lr_on_plateau"}


def schedule_name(value: Any) -> Optional[str]:
    """``"constant"``/``"reduce_lr_on_plateau"`` for a literal naming a schedule without warmup
    (``SchedulerType.CONSTANT`` spelled as text too), else None."""
    if not known(value) or not isinstance(value, str):
        return None
    return _NAMES.get(value.strip().strip("'\"").lower().rpartition(".")[2])


def own_scheduler(pctx: PlanContext) -> bool:
    """The job's scripts build the scheduler themselves, or a DeepSpeed config has a ``scheduler``
    block (DeepSpeed's scheduler replaces the Trainer's)."""
    if any(any(mark in script.source.text for mark in _OWN_SCHEDULER) for script in pctx.scripts):
        return True
    return any("scheduler" in block for _, block, _ in pctx.deepspeed_configs())
