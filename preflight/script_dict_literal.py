"""``NAME["key"]`` (and ``NAME["a"]["b"]``) where ``NAME`` is bound once to a dict literal: the value written
under that key, read without running anything. mmmmayi/Grad-W @ 1c0b31e ``IRM/train.py:21-38``: a
module-level ``configs = {"batchsize": 32, ..., "optimizer": {"initial_lr": 0.001, ...}}`` and no option
parser, read as ``configs["batchsize"]`` (:61) and ``configs["optimizer"]["initial_lr"]`` (:106).

Unknown (None) whenever the dict may hold something else by the time it is read: the name bound more
than once, a key written anywhere in the script under that constant (``cfg["batchsize"] = ...`` on any
name: a helper that receives the dict may change it), a mutating method called on the name (``update``,
``setdefault``, ``pop``, ``clear``, ``popitem``), a ``global`` or ``del`` of it, a ``**`` spread or a
non-constant key in the literal. Part of the script index's resolver."""

from __future__ import annotations

import ast
from typing import Any, Optional

_MUTATORS = frozenset(("update", "setdefault", "pop", "popitem", "clear", "__setitem__"))


def _keys_path(expr: ast.expr) -> Optional[tuple[str, list[str]]]:
    """``(NAME, [k1, k2, ...])`` of ``NAME[k1][k2]...`` with constant string keys."""
    keys: list[str] = []
    node = expr
    while isinstance(node, ast.Subscript):
        if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            return None
        keys.append(node.slice.value)
        node = node.value
    if not isinstance(node, ast.Name) or not keys:
        return None
    return node.id, keys[::-1]


def _changed(tree: ast.AST, name: str, keys: list[str]) -> bool:
    """Whether the script may change the dict ``name`` or a value under one of ``keys``."""
    wanted = set(keys)
    for n in ast.walk(tree):
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)) \
                and isinstance(n.slice, ast.Constant) and n.slice.value in wanted:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _MUTATORS:
            owner = n.func.value
            while isinstance(owner, ast.Subscript):
                owner = owner.value
            if isinstance(owner, ast.Name) and owner.id == name:
                return True
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return True
        if isinstance(n, ast.Delete) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
            return True
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
            return True
    return False


def dict_literal_value(index: Any, expr: ast.expr) -> Optional[tuple[Any, Optional[int]]]:
    """``(value node, line)`` of the entry ``expr`` reads from a dict literal bound once, else None."""
    got = _keys_path(expr)
    tree = getattr(getattr(index, "script", None), "tree", None)
    if got is None or tree is None:
        return None
    name, keys = got
    bound = index.assigns.get(name, [])
    if len(bound) != 1 or not isinstance(bound[0], ast.Dict):
        return None
    if _changed(tree, name, keys):
        return None
    node: Any = bound[0]
    for key in keys:
        if not isinstance(node, ast.Dict) or any(k is None or not isinstance(k, ast.Constant) for k in node.keys):
            return None
        hits = [v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == key]
        if len(hits) != 1:
            return None
        node = hits[0]
    return node, getattr(node, "lineno", None) or getattr(bound[0], "lineno", 0)
