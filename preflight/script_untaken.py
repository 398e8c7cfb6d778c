"""A module-level name bound once unconditionally and rebound only under ``if`` tests decided false:
its value is the unconditional one.

project-baize/baize-chatbot finetune.py:24,55-58::

    GRADIENT_ACCUMULATION_STEPS = BATCH_SIZE // MICRO_BATCH_SIZE
    world_size = int(os.environ.get("WORLD_SIZE", 1))
    ddp = world_size != 1
    if ddp:
        GRADIENT_ACCUMULATION_STEPS = GRADIENT_ACCUMULATION_STEPS // world_size

launched with plain ``python`` (no ``WORLD_SIZE``), ``ddp`` is False and the rebinding never runs.
Read only at module level: every other binding of the name must sit in the body of a top-level
``if`` whose test is decided false (or in the ``else`` of one decided true), there must be no
``global`` of it, and the one unconditional binding must be a plain ``name = value``. Anything
else (an undecided test, a loop, a binding in a function): None."""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.node_memo import node_memo
from preflight.analysis.syntax import target_names
from preflight.script_bindings import _bound_targets, declared_global


def _count(stmts: list[ast.stmt], name: str, nested: bool) -> int:
    """Statements binding ``name`` in ``stmts``; with ``nested`` False, none inside a def, class or lambda."""
    return sum(_counts(stmt, nested).get(name, 0) for stmt in stmts)


def _counts(stmt: ast.stmt, nested: bool) -> dict[str, int]:
    """How many bindings of each name ``stmt`` holds, in one walk kept on the node (asked once per
    name the resolver follows: a walk of the whole module each time cost minutes on long scripts)."""
    key = "_pf_bind_counts_nested" if nested else "_pf_bind_counts"
    return node_memo(stmt, key, lambda: _walk_counts(stmt, nested))


def _walk_counts(stmt: ast.stmt, nested: bool) -> dict[str, int]:
    found: dict[str, int] = {}
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if not nested and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        for t in _bound_targets(node):
            for n in set(target_names(t)):  # a target counts once per name (``_, _ = pair``)
                found[n] = found.get(n, 0) + 1
        stack.extend(ast.iter_child_nodes(node))
    return found


def _binds(stmts: list[ast.stmt], name: str) -> bool:
    return _count(stmts, name, False) > 0


_ACTIVE: set[tuple[int, str]] = set()  # (index, name) being decided: a test that reads the name itself


def untaken_rebinding(index: Any, name: str) -> Optional[ast.expr]:
    """The unconditional module-level value of ``name`` when its other bindings cannot run, else None
    (None too while deciding a test that reads ``name`` itself: ``if x: x = ...``, karpathy/nanochat)."""
    key = (id(index), name)
    if key in _ACTIVE:
        return None
    _ACTIVE.add(key)
    try:
        return _untaken(index, name)
    finally:
        _ACTIVE.discard(key)


def _untaken(index: Any, name: str) -> Optional[ast.expr]:
    tree = getattr(index.script, "tree", None)
    if not isinstance(tree, ast.Module):
        return None
    if name in declared_global(tree):
        return None
    if _count(tree.body, name, True) != _count(tree.body, name, False):
        return None  # a function or class binds it too
    plain: list[ast.Assign] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id == name:
            plain.append(stmt)
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if stmt.name == name:
                return None
            continue
        if not _binds([stmt], name):
            continue
        if not isinstance(stmt, ast.If):
            return None
        decided = index.truth(stmt.test)
        if decided is None:
            return None
        if _binds(stmt.body if decided else stmt.orelse, name):
            return None  # the branch that runs binds it
    if len(plain) != 1:
        return None
    return plain[0].value
