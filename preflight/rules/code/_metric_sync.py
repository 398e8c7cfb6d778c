"""Shared by the rules on metrics a Lightning job logs or monitors across processes (PF438, PF476, PF563,
PF27x): which calls are Lightning's, which Trainer argument runs several processes, which callbacks
monitor a metric."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.context import FileContext
from preflight.rules._pf4_support import kwarg, literal
from preflight.rules._pf414_support import const_str

MONITOR_CALLBACKS = frozenset({"ModelCheckpoint", "EarlyStopping"})


_DISTRIBUTED = ("ddp", "fsdp", "deepspeed")


def is_lightning_qual(qual: str) -> bool:
    return qual.startswith(("lightning.", "pytorch_lightning.", "lightning_fabric."))


def multi_process_arg(ctx: FileContext, trainer: ast.Call) -> Optional[ast.AST]:
    """The argument that makes the Trainer run several processes: ``devices=4`` (or -1, or a list
    of several), ``num_nodes=2``, or a ``ddp``/``fsdp``/``deepspeed`` strategy."""
    strategy = kwarg(trainer, "strategy")
    text = const_str(strategy)
    if text is not None and text.lower().startswith(_DISTRIBUTED):
        return strategy
    for key in ("devices", "gpus", "num_nodes"):
        expr = kwarg(trainer, key)
        if expr is None:
            continue
        value = literal(ctx, expr)
        if isinstance(value, int) and not isinstance(value, bool) and (value > 1 or (value == -1 and key != "num_nodes")):
            return expr
        if isinstance(value, (list, tuple)) and len(value) > 1:
            return expr
    return None
