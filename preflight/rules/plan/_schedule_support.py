"""Shared by the plan rules on Accelerate processes and step-count schedules (PF208, PF212, PF524)."""

from __future__ import annotations

import ast
from typing import Any, Iterator, Optional

from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last

# schedules sized in optimizer steps: (builder, keyword of the total, its position)
BUILDERS = {"get_scheduler": ("num_training_steps", 3),
            "get_linear_schedule_with_warmup": ("num_training_steps", 2),
            "get_cosine_schedule_with_warmup": ("num_training_steps", 2),
            "get_cosine_with_hard_restarts_schedule_with_warmup": ("num_training_steps", 2),
            "get_polynomial_decay_schedule_with_warmup": ("num_training_steps", 2),
            # torch's own step-count schedules (accelerate issue 2882: OneCycleLR's total_steps)
            "OneCycleLR": ("total_steps", 2),
            "CosineAnnealingLR": ("T_max", 1)}
PER_PROCESS_WORDS = ("num_processes", "world_size", "num_gpus", "n_gpu")


def processes(pctx: Any) -> Optional[Any]:
    """The plan's ``dist.world_size`` fact when it is a known count above one, else None."""
    world = pctx.plan.resolve("dist.world_size")
    value = getattr(world, "value", None)
    if world is None or not isinstance(value, int) or isinstance(value, bool) or value <= 1:
        return None
    return world


def schedule_totals(ctx: Any) -> Iterator[tuple[ast.Call, ast.expr]]:
    """Each call of a step-count schedule builder in the file with its total (keyword or position),
    unless the total already mentions the process count."""
    for call in ctx.nodes(ast.Call):
        found = BUILDERS.get(call_last(call))
        if found is None:
            continue
        key, pos = found
        total = kwarg(call, key)
        if total is None and len(call.args) > pos:
            total = call.args[pos]
        if total is None or any(w in ast.unparse(total) for w in PER_PROCESS_WORDS):
            continue
        yield call, total
