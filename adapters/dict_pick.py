"""A value picked from a dict literal by a key the job decides: ``{"fsdp": ShardingStrategy.FULL_SHARD,
"sdp": ShardingStrategy.SHARD_GRAD_OP, "hsdp": ShardingStrategy.HYBRID_SHARD}[args.data_parallel]``
(FoundationVision/LlamaGen @ ce98ec4 ``autoregressive/train/train_c2i_fsdp.py:41-45``, ``--data-parallel``
default ``fsdp``, :385). The key must resolve to a constant that is one of the literal keys; the
picked expression is returned for the caller to read as if written in place. Nothing is run."""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional


def dict_pick(expr: Optional[ast.AST], resolve: Callable[[ast.AST], Any]) -> Optional[ast.AST]:
    """The dict value ``expr`` selects, or None when ``expr`` is not such a subscript or the key is unknown."""
    if not isinstance(expr, ast.Subscript) or not isinstance(expr.value, ast.Dict):
        return None
    got = resolve(expr.slice)
    key = getattr(got, "value", None)
    if key is None or isinstance(key, bool):
        return None
    for k, v in zip(expr.value.keys, expr.value.values):
        if isinstance(k, ast.Constant) and k.value == key:
            return v
    return None
