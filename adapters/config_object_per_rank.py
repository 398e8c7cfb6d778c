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
from preflight.plan import Source, TrainingPlan

_OWNERS = ("Accelerator", "PartialState")
_SPLITS = "config_object_per_rank.splits"  # project.cache: the splits read, divided in ``split_micro``
_HELD = ("world_size", "num_replicas")


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


def _quotient(expr: Optional[ast.expr]) -> Optional[tuple[ast.expr, ast.expr, str]]:
    """(numerator, divisor, rounding) of ``math.ceil(B / P)``, ``int(B / P)`` or ``B // P``."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.FloorDiv):
        return expr.left, expr.right, "floor"
    if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords \
            and isinstance(expr.args[0], ast.BinOp) and isinstance(expr.args[0].op, ast.Div):
        name = ast.unparse(expr.func)
        if name in ("math.ceil", "ceil"):
            return expr.args[0].left, expr.args[0].right, "ceil"
        if name == "int":
            return expr.args[0].left, expr.args[0].right, "floor"
    return None


def _tied(divisor: str, tree: Optional[ast.AST]) -> bool:
    """``divisor`` is handed in ``tree`` to ``DistributedSampler(num_replicas=...)`` or ``init_process_group(
    world_size=...)``: the number of processes."""
    if tree is None:
        return False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = last_attr(node.func)
        key = "num_replicas" if name == "DistributedSampler" else "world_size" if name == "init_process_group" else None
        if key is not None and any(k.arg == key and ast.unparse(k.value) == divisor for k in node.keywords):
            return True
    return False


def split_loader(call: ast.Call, reader: Any, shown: str, tree: Optional[ast.AST], project: Any) -> None:
    """Keep ``DataLoader(..., batch_size=math.ceil(K / self.world_size))`` (the divisor tied to the process count,
    the quotient written in place or bound once to a name) for :func:`split_micro`."""
    if last_attr(call.func) != "DataLoader" or project is None:
        return
    expr = next((k.value for k in call.keywords if k.arg == "batch_size"), None)
    if isinstance(expr, ast.Name):
        bound = reader.assigns.get(expr.id, [])
        expr = bound[0] if len(bound) == 1 else None
    split = _quotient(expr)
    if split is None:
        return
    left, right, rounding = split
    if not isinstance(right, (ast.Name, ast.Attribute)) or last_attr(right) not in _HELD \
            or not _tied(ast.unparse(right), tree):
        return
    got = reader.ev(left)
    if got is None or got.path is None or not isinstance(got.value, int) or isinstance(got.value, bool) \
            or got.value < 1:
        return
    assert expr is not None
    project.cache.setdefault(_SPLITS, []).append(
        (got.value, tuple(got.path), rounding, ast.unparse(expr), shown, call.lineno))


def split_micro(plan: TrainingPlan, project: Any) -> None:
    """``batch.micro`` of the splits :func:`split_loader` kept, by the plan's ``dist.world_size``, when no adapter
    found a per-process batch and every split agrees."""
    splits = project.cache.get(_SPLITS) if project is not None else None
    world = plan.resolve("dist.world_size")
    if not splits or plan.resolve("batch.micro") is not None or world is None \
            or not isinstance(world.value, int) or isinstance(world.value, bool) or world.value < 1:
        return
    n = world.value
    values = {(-(-v // n) if rounding == "ceil" else v // n) for v, _p, rounding, _t, _s, _l in splits}
    if len(values) != 1 or next(iter(values)) < 1:
        return
    value, path, _rounding, text, shown, line = splits[0]
    plan.add("batch.micro", next(iter(values)), Source(
        "derived", shown, line, ".".join(map(str, path)),
        f"{'.'.join(map(str, path))} = {value} split over the processes in DataLoader(batch_size={text}) at "
        f"{shown}:{line}, the divisor handed to the sampler as the process count: dist.world_size {n}"),
        confidence="medium", adapter="value_flow")
