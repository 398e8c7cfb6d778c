"""Three readings of a yacs project's own training code (the config flows there through
:mod:`preflight.adapters.config_object_yacs`; read by :mod:`preflight.adapters.config_object_reads`), each a
shape many repositories copy. Nothing is imported or executed.

* The maskrcnn-benchmark data loader (facebookresearch/maskrcnn-benchmark ``maskrcnn_benchmark/data/build.py``
  ``make_data_loader``, copied by FCOS, ATSS, GLIP and many others; microsoft/GLIP @ 9dda955
  ``maskrcnn_benchmark/data/build.py:244-253``): ``num_gpus = num_replicas or get_world_size()``; ``if is_train:
  images_per_batch = cfg.SOLVER.IMS_PER_BATCH ... images_per_gpu = images_per_batch // num_gpus``. The key is
  the batch over all processes (``batch.global``) when the call's ``is_train`` is true (written, or the
  parameter's default) and the per-process batch is the key divided by the world size.
* apex AMP with the opt level a config key (microsoft/FocalNet @ e8514bd ``main.py:89-90``, the
  Swin-Transformer layout: ``if config.AMP_OPT_LEVEL != "O0": model, optimizer = amp.initialize(model,
  optimizer, opt_level=config.AMP_OPT_LEVEL)``, the key set from ``--amp-opt-level`` default ``O1``): the level
  the key holds (O1 ``amp_fp16``, O2/O3 ``fp16``) when every ``if`` around the call is decided to run it.
* An accumulation arm guarded by the accumulation key (FocalNet ``main.py:175-214``: ``if
  config.TRAIN.ACCUMULATION_STEPS > 1: ... if (idx + 1) % config.TRAIN.ACCUMULATION_STEPS == 0:
  optimizer.step()`` ``else: ... optimizer.step()``, the key's default 0): the guard decided false takes the
  arm that steps every iteration (``batch.grad_accum`` 1); decided true, the key is the accumulation.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.config_object_autocast import _imported_as

from preflight.analysis.syntax import dotted_name

Fact = tuple  # (field, value, the key's path, detail)
_APEX = {"O1": "amp_fp16", "O2": "fp16", "O3": "fp16"}


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _attr_parts(node: ast.AST, root: str) -> Optional[tuple[str, ...]]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return tuple(reversed(parts)) if isinstance(node, ast.Name) and node.id == root and parts else None


def _key(cfg: ast.expr, path: tuple) -> ast.expr:
    node: ast.expr = cfg
    for part in path:
        node = ast.Attribute(value=node, attr=part, ctx=ast.Load())
    return node


def _bound(call: ast.Call, fn: ast.FunctionDef, name: str) -> Optional[ast.AST]:
    """The expression the call gives parameter ``name`` (by keyword or position), else its default."""
    params = [a.arg for a in fn.args.args]
    if name not in params:
        return None
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    at = params.index(name)
    if at < len(call.args):
        return call.args[at]
    defaults = fn.args.defaults
    first = len(params) - len(defaults)
    return defaults[at - first] if at >= first else None


def _world_names(fn: ast.FunctionDef) -> set[str]:
    """Locals bound (once, at the function's top level) to an expression calling ``get_world_size()``."""
    out: dict[str, int] = {}
    for stmt in fn.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            calls = {(dotted_name(n.func) or "").rsplit(".", 1)[-1] for n in ast.walk(stmt.value)
                     if isinstance(n, ast.Call)}
            out[stmt.targets[0].id] = out.get(stmt.targets[0].id, 0) + (1 if "get_world_size" in calls else 2)
    return {name for name, n in out.items() if n == 1}


def total_batch_loader(call: ast.Call, reader: Any, shown: str, modules: Any) -> Optional[Fact]:
    """``make_data_loader(cfg, is_train=True, ...)`` with the callee the maskrcnn-benchmark shape (see the module's
    docstring): ("batch.global", the key's value, its path, detail), else None."""
    if not isinstance(call.func, ast.Name) or not call.args or isinstance(call.args[0], ast.Starred) \
            or any(k.arg is None for k in call.keywords):
        return None
    got = modules.function_in(call.func.id, shown)
    if got is None or got[2] is not None:
        return None
    where, fn, _ = got
    if not fn.args.args:
        return None
    cfg = fn.args.args[0].arg
    world = _world_names(fn)
    for stmt in fn.body:
        if not (isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Name)):
            continue
        given = _bound(call, fn, stmt.test.id)
        if not (isinstance(given, ast.Constant) and given.value is True):
            continue  # the evaluation arm, or a split the call's value does not decide
        keys: dict[str, tuple] = {}
        for inner in stmt.body:
            if isinstance(inner, ast.Assign) and len(inner.targets) == 1 and isinstance(inner.targets[0], ast.Name):
                path = _attr_parts(inner.value, cfg)
                if path and path[-1] == "IMS_PER_BATCH":
                    keys[inner.targets[0].id] = path
                elif isinstance(inner.value, ast.BinOp) and isinstance(inner.value.op, (ast.FloorDiv, ast.Div)) \
                        and isinstance(inner.value.left, ast.Name) and inner.value.left.id in keys \
                        and isinstance(inner.value.right, ast.Name) and inner.value.right.id in world:
                    path = keys[inner.value.left.id]
                    value = reader.ev(_key(call.args[0], path))
                    if value is None or value.path is None or not _count(value.value):
                        return None
                    return ("batch.global", value.value, value.path,
                            f"{'.'.join(path)} {value.value} is the batch over all processes: {where}:{inner.lineno} "
                            f"gives each {inner.targets[0].id} = {inner.value.left.id} // {inner.value.right.id} "
                            f"(get_world_size()), {call.func.id}(...) at {shown}:{call.lineno}")
    return None


def apex_level(call: ast.Call, reader: Any, shown: str, module: Optional[ast.Module]) -> Optional[Fact]:
    """``amp.initialize(model, optimizer, opt_level=<key>)`` (``from apex import amp``), the call known to run:
    ("precision.mode", mode, the key's path, detail), else None."""
    if _imported_as(dotted_name(call.func) or "", module) != "apex.amp.initialize":
        return None
    kwargs = {k.arg: k.value for k in call.keywords}
    if None in kwargs or "enabled" in kwargs or "cast_model_type" in kwargs \
            or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    level = kwargs.get("opt_level", call.args[3] if len(call.args) > 3 else None)
    got = reader.ev(level) if level is not None else None
    if got is None or got.path is None or not isinstance(got.value, str) or got.value not in _APEX:
        return None
    return ("precision.mode", _APEX[got.value], got.path,
            f"{'.'.join(got.path)} = {got.value!r} is the opt level of apex amp.initialize(...) ({shown}:{call.lineno})")


def accumulation_guard(node: ast.If, reader: Any, shown: str) -> Optional[Fact]:
    """``if <accumulation key> > 1:`` around an arm that steps the optimizer every ``key`` iterations, the other
    arm stepping it every iteration: ("batch.grad_accum", 1 or the key, the key's path, detail), else None."""
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Gt)
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == 1):
        return None
    got = reader.ev(test.left)
    if got is None or got.path is None or "accum" not in str(got.path[-1]).lower() \
            or not isinstance(got.value, int) or isinstance(got.value, bool) or got.value < 0:
        return None
    left = ast.dump(test.left)

    def steps(stmts: list[ast.stmt]) -> list[ast.Call]:
        return [n for s in stmts for n in ast.walk(s) if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute) and n.func.attr == "step" and not n.args]

    def every_k(stmts: list[ast.stmt]) -> bool:
        return any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) and ast.dump(n.right) == left
                   for s in stmts for n in ast.walk(s))

    if not (steps(node.body) and steps(node.orelse) and every_k(node.body) and not every_k(node.orelse)):
        return None
    key = ".".join(got.path)
    if got.value > 1:
        return ("batch.grad_accum", got.value, got.path,
                f"{key} = {got.value} > 1 takes the arm stepping the optimizer every {got.value} iterations "
                f"({shown}:{node.lineno})")
    return ("batch.grad_accum", 1, got.path,
            f"{key} = {got.value} is not > 1: the arm at {shown}:{node.orelse[0].lineno} steps the optimizer every "
            f"iteration")
