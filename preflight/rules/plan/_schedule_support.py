"""Shared by the plan rules on Accelerate processes and step-count schedules (PF208, PF212, PF524, PF551, PF209)."""

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


def fresh_loader_len(expr: ast.AST) -> Optional[ast.Call]:
    """``len(<...>.train_dataloader())`` inside ``expr``: a loader built outside the Trainer's hands."""
    for sub in ast.walk(expr):
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "len"
                and len(sub.args) == 1 and isinstance(sub.args[0], ast.Call)
                and isinstance(sub.args[0].func, ast.Attribute) and sub.args[0].func.attr == "train_dataloader"):
            return sub
    return None


def is_schedule(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    low = name.lower()
    return "schedul" in low or low.endswith("lr")
