"""Gradient accumulation the script computes from the global batch: ``total // (per_process * world)``.

Guitaricet/relora @ 176f376 ``torchrun_main.py:357-360``::

    world_size = int(os.environ["WORLD_SIZE"])
    ...
    if args.total_batch_size is not None:
        if args.gradient_accumulation is None:
            args.gradient_accumulation = args.total_batch_size // (args.batch_size * world_size)

then ``:796-799`` ``scaled_loss = loss / args.gradient_accumulation`` and ``if global_step %
args.gradient_accumulation != 0: continue``. The same lines recur in other repositories
(jiaweizzhao/GaLore @ 1317b5f ``torchrun_main.py`` and xichen-fy/Fira @ 136583b ``torchrun_main.py``, each
``world_size = int(os.environ["WORLD_SIZE"])`` and the same guarded quotient; ``find_string`` finds ten files); huggingface-style
scripts write it with the accelerate process count (``args.gradient_accumulation_steps =
args.total_batch_size // (args.per_device_train_batch_size * accelerator.num_processes)``, two files found), a
single-process form divides by the per-process batch alone (``args.gradient_accumulation_steps =
args.total_batch_size // args.per_device_train_batch_size``).

Read, never run: in an entry script, the only binding of a name or attribute named like an accumulation
count (``gradient_accumulation``, ``grad_accum_steps``, ``accumulation_steps``, ``accum_iter``...) is
``G // (M * W)`` or ``G // M``: ``G`` named like a global batch (``total_batch_size``, ``global_batch_size``),
``M`` like a per-process batch (``batch_size``, ``per_device_train_batch_size``, ``micro_batch_size``), ``W``
the job's process count (``get_world_size()``, an accelerate/Fabric process count, or a local of the same
function bound only to ``int(os.environ["WORLD_SIZE"])`` or a ``get_world_size()`` call; a parameter is not
followed). ``G`` and ``M`` take the plan's ``batch.global``/``batch.micro`` when those were read from an option
of that name (a config file may set it), else the script's own resolution, which must agree with the plan's
fact. The bound name must be read again as a divisor or modulus (the loss scaled, the step gated), so the
count is the one the loop uses. ``batch.grad_accum`` is then the quotient, when it divides exactly; the
confidence is the weakest input's, medium at most. Nothing when the plan already has a count, when the
script binds the name any other way too (``GRADIENT_ACCUMULATION_STEPS //= world_size``), when a factor is a
token count (``micro_batch_size * max_position_embeddings * world_size``) or another device count
(``args.n_gpu``), or when the division does not come out exact.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name
from preflight.plan import TrainingPlan

_GLOBAL = re.compile(r"(total|global|effective)_?(train_)?batch(_size)?|^batch_size_total$", re.IGNORECASE)
_MICRO = re.compile(r"batch(_size)?$|^bs$|micro_batch|per_device|per_gpu", re.IGNORECASE)
_ACCUM = re.compile(r"^(gradient_|grad_)?accum(ulation|ulate)?(_steps?|_iters?|_every|_iter)?$", re.IGNORECASE)


def _last(text: Optional[str]) -> str:
    return (text or "").rsplit(".", 1)[-1]


def _world_local(expr: ast.AST, idx: Any, scope: ast.AST) -> bool:
    """The process count: ``get_world_size()`` or an accelerate/Fabric count (:mod:`world_expr`), or a
    local of ``scope`` (the function around the division, or the module) bound there, only, to
    ``int(os.environ["WORLD_SIZE"])`` / ``os.environ.get("WORLD_SIZE", ...)`` / ``os.getenv`` or to an
    expression calling ``get_world_size()``; a parameter of that name is not followed."""
    from preflight.adapters.world_expr import is_world_size

    if is_world_size(expr, idx):
        return True
    if not isinstance(expr, ast.Name):
        return False
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = scope.args
        if expr.id in {p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if p}:
            return False
    bound: list[Optional[ast.AST]] = []
    for node in _own_nodes(scope):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
            bound.append(node.value if len(node.targets) == 1 else None)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)) and any(
                isinstance(n, ast.Name) and n.id == expr.id and isinstance(n.ctx, ast.Store) for n in ast.walk(
                    node.target if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr))
                    else node)):
            bound.append(None)
    return bool(bound) and all(v is not None and any(_reads_world(n, idx) for n in ast.walk(v)) for v in bound)


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of ``scope`` outside the functions and classes defined in it."""
    out: list[ast.AST] = []
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _scope_of(tree: ast.AST, node: ast.AST) -> ast.AST:
    """The innermost function holding ``node``, else the module."""
    best: ast.AST = tree
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(n is node for n in _own_nodes(fn)):
            return fn
    return best


def _reads_world(node: ast.AST, idx: Any) -> bool:
    from preflight.adapters.world_expr import is_world_size

    if isinstance(node, ast.Call) and is_world_size(node, idx):
        return True
    if isinstance(node, ast.Subscript) and dotted_name(node.value) == "os.environ":
        key = node.slice
        return isinstance(key, ast.Constant) and key.value == "WORLD_SIZE"
    if isinstance(node, ast.Call) and dotted_name(node.func) in ("os.environ.get", "os.getenv") and node.args:
        first = node.args[0]
        return isinstance(first, ast.Constant) and first.value == "WORLD_SIZE"
    return False


def _split(divisor: ast.AST, idx: Any, scope: ast.AST) -> Optional[tuple[ast.AST, bool]]:
    """``(M, True)`` for ``M * W``, ``(M, False)`` for ``M`` alone, None for anything else."""
    if isinstance(divisor, (ast.Name, ast.Attribute)):
        return divisor, False
    if isinstance(divisor, ast.BinOp) and isinstance(divisor.op, ast.Mult):
        for m, w in ((divisor.left, divisor.right), (divisor.right, divisor.left)):
            if isinstance(m, (ast.Name, ast.Attribute)) and _world_local(w, idx, scope):
                return m, True
    return None


def _value(expr: ast.AST, fact: Any, idx: Any) -> Optional[int]:
    """The int ``expr`` holds: the plan's fact when it was read from an option of that name (a config
    file may have set it), else the script's own resolution, which must then agree with the fact."""
    if fact is not None and _last(fact.source.key) and _last(fact.source.key) == _last(dotted_name(expr)):
        return _int(fact)
    resolved = idx.resolve(expr)
    value = resolved.value if resolved is not None else None
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        return None
    if fact is not None and fact.value != value:
        return None
    return value


def _read_as_count(tree: ast.AST, target: str, bound: ast.AST) -> bool:
    """``target`` read again as a divisor or modulus (``loss / n``, ``step % n``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) \
                and node.right is not bound and dotted_name(node.right) == target:
            return True
        if isinstance(node, ast.Compare) and any(isinstance(c, ast.BinOp) and isinstance(c.op, ast.Mod)
                                                 and dotted_name(c.right) == target for c in node.comparators):
            return True
    return False


def _bindings(tree: ast.AST, target: str) -> list[ast.AST]:
    out: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            out.extend(node for t in node.targets for n in ast.walk(t) if dotted_name(n) == target)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and dotted_name(node.target) == target:
            out.append(node)
    return out


def _int(fact: Any) -> Optional[int]:
    value = fact.value if fact is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def accum_from_quotient(plan: TrainingPlan, project: Any) -> None:
    """``batch.grad_accum`` from the script's own quotient of the global batch (module docstring)."""
    if project is None or plan.resolve("batch.grad_accum") is not None:
        return
    g, m, w = (plan.resolve(f) for f in ("batch.global", "batch.micro", "dist.world_size"))
    world = _int(w)
    found: list[tuple[int, Any, ast.AST, str, str]] = []
    for script in project.own_scripts():
        tree = script.tree
        if tree is None or script.source.path is None or "//" not in script.source.text:
            continue
        idx = project.index(script)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.FloorDiv)
                    and isinstance(node.value.left, (ast.Name, ast.Attribute))):
                continue
            target = dotted_name(node.targets[0])
            if not target or not _ACCUM.match(_last(target)) or not _GLOBAL.search(_last(dotted_name(node.value.left))):
                continue
            split = _split(node.value.right, idx, _scope_of(tree, node))
            if split is None or (split[1] and world is None) or not _MICRO.search(_last(dotted_name(split[0]))):
                continue
            if len(_bindings(tree, target)) != 1 or not _read_as_count(tree, target, node.value):
                continue
            total, micro = _value(node.value.left, g, idx), _value(split[0], m, idx)
            if total is None or micro is None:
                continue
            divisor = micro * (world if split[1] and world else 1)
            if total % divisor or total // divisor <= 0:
                continue
            parts = f"{total} // ({micro} per process" + (f" x {world} processes)" if split[1] else ")")
            found.append((total // divisor, script, node, target, parts))
    if len({f[0] for f in found}) != 1:
        return
    count, script, node, target, parts = found[0]
    detail = f"{ast.unparse(node)}: {parts} = {count}, read back as the accumulation count"
    fields = [f for f, fact in (("batch.global", g), ("batch.micro", m), ("dist.world_size", w)) if fact is not None]
    plan.add("batch.grad_accum", count, project.source(script, node, "code", key=_last(target), detail=detail),
             plan.capped("medium", *fields), adapter="accum_quotient")
