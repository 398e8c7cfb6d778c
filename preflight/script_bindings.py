"""Which binding a name means where it is used: the one module-level ``name = value`` when
nothing closer can bind it (the script index's resolver asks, :mod:`preflight.script_index`)."""

from __future__ import annotations

import ast
from typing import Mapping, Optional, Sequence

from preflight.analysis.node_memo import node_memo
from preflight.analysis.syntax import target_names


def _bound_targets(node: ast.AST) -> list[ast.AST]:
    """The targets a statement binds (assignments, loops, with, imports, walrus)."""
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr, ast.comprehension)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [i.optional_vars for i in node.items if i.optional_vars is not None]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [ast.Name(id=(a.asname or a.name).split(".")[0]) for a in node.names]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [ast.Name(id=node.name)]
    return []


def declared_global(scope: ast.AST) -> frozenset[str]:
    """The names a ``global`` or ``nonlocal`` statement anywhere under ``scope`` names, found in one
    walk and kept on the node (the resolver asks it once per name it follows)."""
    return node_memo(scope, "_pf_declared_global", lambda: frozenset(
        n for node in ast.walk(scope) if isinstance(node, (ast.Global, ast.Nonlocal)) for n in node.names))


def module_binding(tree: Optional[ast.AST], functions: Mapping[str, Sequence[ast.AST]], name: str,
                   line: Optional[int]) -> Optional[ast.expr]:
    """The value of the one module-level ``name = value`` when ``name`` at ``line`` can only
    mean it: used at module level, or in a function that neither takes nor binds ``name``,
    and no ``global name`` anywhere (lit-llama ``finetune/lora.py:40-42``: module-level
    ``micro_batch_size = 4`` while ``get_dataloader(..., micro_batch_size, ...)`` has a
    parameter of that name)."""
    if line is None or tree is None:
        return None
    around = [f for fs in functions.values() for f in fs
              if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
              and f.lineno <= line <= (getattr(f, "end_lineno", None) or f.lineno)]
    for fn in around:
        args = fn.args
        if any(a.arg == name for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)) \
                or (args.vararg and args.vararg.arg == name) or (args.kwarg and args.kwarg.arg == name):
            return None
        if any(name in target_names(t) for node in ast.walk(fn) for t in _bound_targets(node)):
            return None
    values: list[ast.AST] = []
    stack: list[ast.AST] = list(ast.iter_child_nodes(tree))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(n for n in ast.walk(node) if isinstance(n, (ast.Global, ast.Nonlocal)))
            continue
        if any(name in target_names(t) for t in _bound_targets(node)):
            values.append(node)
        stack.extend(ast.iter_child_nodes(node))
    if len(values) != 1:
        return None
    only = values[0]
    if isinstance(only, ast.Assign) and len(only.targets) == 1 and isinstance(only.targets[0], ast.Name):
        return only.value
    if isinstance(only, ast.AnnAssign) and isinstance(only.target, ast.Name) and only.value is not None:
        return only.value
    return None


_SCOPES: dict[int, tuple[ast.AST, dict[str, list[ast.AST]], frozenset[str]]] = {}
_MAX_SCOPES = 4096


def _scope_bindings(fn: ast.AST) -> tuple[dict[str, list[ast.AST]], frozenset[str]]:
    """For one function: name -> the statements of its own body (nested scopes left out) that bind
    it, and the names it must not be read for (``global``/``nonlocal``, a nested def or class of
    that name). Computed once per function node."""
    held = _SCOPES.get(id(fn))
    if held is not None and held[0] is fn:
        return held[1], held[2]
    binds: dict[str, list[ast.AST]] = {}
    blocked: set[str] = set()
    stack: list[ast.AST] = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            blocked.update(node.names)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            if not isinstance(node, ast.Lambda):
                blocked.add(node.name)
            continue  # a nested scope binds its own names
        for t in _bound_targets(node):
            for bound in target_names(t):
                binds.setdefault(bound, []).append(node)
        stack.extend(ast.iter_child_nodes(node))
    if len(_SCOPES) >= _MAX_SCOPES:
        _SCOPES.clear()
    _SCOPES[id(fn)] = (fn, binds, frozenset(blocked))
    return binds, frozenset(blocked)


def function_binding(functions: Mapping[str, Sequence[ast.AST]], name: str, line: Optional[int]) \
        -> Optional[ast.expr]:
    """The value of the one ``name = value`` of the innermost function around ``line`` when that
    function binds ``name`` nowhere else, does not take it as a parameter and declares it neither
    ``global`` nor ``nonlocal``: there ``name`` can only hold that value (or be unbound).
    lifeiteng/vall-e @ 9c69096 ``valle/bin/trainer.py:1149-1152``: ``world_size = args.world_size``
    in ``main`` while ``run(rank, world_size, args)`` and two other functions take a parameter of
    that name."""
    if line is None:
        return None
    around = [f for fs in functions.values() for f in fs
              if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              and f.lineno <= line <= (getattr(f, "end_lineno", None) or f.lineno)]
    if not around:
        return None
    fn = max(around, key=lambda f: f.lineno)
    args = fn.args
    if any(a.arg == name for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)) \
            or (args.vararg and args.vararg.arg == name) or (args.kwarg and args.kwarg.arg == name):
        return None
    binds, blocked = _scope_bindings(fn)
    values = binds.get(name, [])
    if name in blocked or len(values) != 1:
        return None
    only = values[0]
    if isinstance(only, ast.Assign) and len(only.targets) == 1 and isinstance(only.targets[0], ast.Name) \
            and only.lineno < line:
        return only.value
    return None
