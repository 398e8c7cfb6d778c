"""Learning-rate schedulers as code builds them: the optimizer a scheduler construction is built on
(shared by PF207 and PF655)."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.rules._pf4_support import target_text

_SCHEDULER_SUFFIXES = ("LR", "Scheduler", "LRScheduler", "ReduceLROnPlateau")


def scheduler_optimizer(call: ast.Call) -> Optional[str]:
    """``StepLR(opt, ...)`` / ``get_linear_schedule_with_warmup(opt, ...)`` -> ``opt``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if not (name.endswith(_SCHEDULER_SUFFIXES) or (name.startswith("get_") and "schedule" in name)):
        return None
    arg: Optional[ast.expr] = call.args[0] if call.args else None
    for kw in call.keywords:
        if kw.arg == "optimizer":
            arg = kw.value
    return target_text(arg) if arg is not None else None
