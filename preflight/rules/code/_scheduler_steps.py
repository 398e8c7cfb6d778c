"""Shared by the rules on where a learning-rate scheduler steps (PF440, PF474, PF481, PF482, PF493):
schedulers' period arguments, batch loops, scheduler classes."""

from __future__ import annotations

import ast
from typing import Optional, Union

from preflight.rules._pf4_support import LOADER_WRAPPERS
from preflight.rules._pf414_support import call_last

# torch schedulers whose period is an argument counted in step() calls: (keyword, position)
SCHEDULER_PERIOD = {
    "CosineAnnealingLR": ("T_max", 1),
    "CosineAnnealingWarmRestarts": ("T_0", 1),
    "StepLR": ("step_size", 1),
    "MultiStepLR": ("milestones", 1),
}
# a loop over one of these is a batch loop
_BATCH_WORDS = ("loader", "batch", "data")


def call_arg(call: ast.Call, name: str, index: int) -> Optional[ast.expr]:
    kw = next((k.value for k in call.keywords if k.arg == name), None)
    if kw is not None:
        return kw
    return call.args[index] if len(call.args) > index else None


def assigned_once(scope: ast.AST, name: str) -> Optional[ast.expr]:
    values = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    return values[0] if len(values) == 1 else None


def loop_source(loop: Union[ast.For, ast.AsyncFor]) -> ast.expr:
    it = loop.iter
    while isinstance(it, ast.Call) and it.args and call_last(it) in LOADER_WRAPPERS | {"tqdm", "track"}:
        it = it.args[0]
    return it


def is_batch_loop(loop: Union[ast.For, ast.AsyncFor]) -> bool:
    source = loop_source(loop)
    if isinstance(source, ast.Call) and call_last(source) == "range":
        return False
    text = ast.unparse(source).lower()
    return "epoch" not in text and (any(w in text for w in _BATCH_WORDS) or text == "dl" or text.endswith("_dl"))


TRANSFORMERS_SCHEDULES = frozenset({
    "get_linear_schedule_with_warmup", "get_cosine_schedule_with_warmup", "get_constant_schedule_with_warmup",
    "get_polynomial_decay_schedule_with_warmup", "get_cosine_with_hard_restarts_schedule_with_warmup",
    "get_scheduler", "get_constant_schedule", "get_inverse_sqrt_schedule", "get_wsd_schedule"})


def is_scheduler(qual: str) -> bool:
    last = qual.rsplit(".", 1)[-1]
    return qual.startswith("torch.optim.lr_scheduler.") or (qual.startswith("transformers.")
                                                            and last in TRANSFORMERS_SCHEDULES)
