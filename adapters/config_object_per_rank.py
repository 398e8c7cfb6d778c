"""A data loader whose batch is a configuration key divided by the process count, read by
:mod:`preflight.adapters.config_object_reads` (nothing imported or executed).

baofff/U-ViT @ ce55170 ``train_ldm.py:29,37-38,57``: ``accelerator = accelerate.Accelerator()``, then
``mini_batch_size = config.train.batch_size // accelerator.num_processes`` and ``DataLoader(train_dataset,
batch_size=mini_batch_size, ...)``, with ``config.train.batch_size = 1024`` from the ml_collections file the
launch line names (``configs/imagenet256_uvit_large.py:22``) and ``accelerate launch --num_processes 8``: each
process loads 1024 // 8 = 128. The divisor must be the process count of an ``Accelerator``/``PartialState`` the
function builds (``accelerator.num_processes``) or ``get_world_size()``; an attribute of anything else
(``config.num_gpus``, ``args.world_size``) is whatever that object holds and is not read. The count is the launch
line's (medium); without a launcher count, or a key the count does not divide, nothing is claimed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import last_attr

_OWNERS = ("Accelerator", "PartialState")


def _is_procs(expr: ast.AST, reader: Any) -> bool:
    """``get_world_size()``, or ``X.num_processes`` with X bound once, here, to ``[accelerate.]Accelerator(...)``."""
    if isinstance(expr, ast.Call):
        return last_attr(expr.func) == "get_world_size" and not expr.args
    if not (isinstance(expr, ast.Attribute) and expr.attr == "num_processes" and isinstance(expr.value, ast.Name)):
        return False
    bound = reader.assigns.get(expr.value.id, [])
    return len(bound) == 1 and isinstance(bound[0], ast.Call) and last_attr(bound[0].func) in _OWNERS


def per_rank_loader(call: ast.Call, reader: Any, shown: str, argv: Optional[list[str]]) \
        -> Optional[tuple[str, int, tuple, str]]:
    """(field, value, config path, detail) of ``DataLoader(..., batch_size=K // accelerator.num_processes)`` (the
    quotient written in place or bound once to a name; ``int(...)`` around it), or None."""
    if last_attr(call.func) != "DataLoader":
        return None
    expr = next((k.value for k in call.keywords if k.arg == "batch_size"), None)
    if isinstance(expr, ast.Name):
        bound = reader.assigns.get(expr.id, [])
        expr = bound[0] if len(bound) == 1 else None
    if isinstance(expr, ast.Call) and last_attr(expr.func) == "int" and len(expr.args) == 1 and not expr.keywords:
        expr = expr.args[0]
    if not (isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.FloorDiv, ast.Div))
            and _is_procs(expr.right, reader)):
        return None
    got = reader.ev(expr.left)
    if got is None or got.path is None or not isinstance(got.value, int) or isinstance(got.value, bool) \
            or got.value < 1:
        return None
    from preflight.adapters.launchers import parse_launch

    procs = parse_launch(argv).total_procs if argv else None
    if not procs or got.value % procs:
        return None
    text = ast.unparse(expr)
    return ("batch.micro", got.value // procs, got.path,
            f"{'.'.join(got.path)} = {got.value} divided by the process count ({text}, {shown}:{expr.lineno}) "
            f"and given to DataLoader(batch_size=...) at line {call.lineno}: {got.value} // {procs} processes of "
            f"the launch line")
