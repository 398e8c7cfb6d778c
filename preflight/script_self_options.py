"""``self.args.<option>`` in an ``if`` test: the parsed options a class keeps from its constructor.

xfactlab/orpo @ 208d2d6 ``main.py``: ``class ORPO: def __init__(self, args): self.args = args``, built
once as ``ORPO(args=args)`` with ``args = default_args(parser)`` (the parsed options), and
``if self.args.enable_lora:`` (``:49``) around ``LoraConfig(...)``; ``--enable_lora`` is a
``store_true`` option the launch line does not pass, so the test is false.

Read, never run, and only for ``if`` tests (:meth:`preflight.script_index.ScriptIndex.truth`):
``self.N.A`` where the file assigns ``self.N`` exactly once, as ``self.N = P`` in an ``__init__``
whose parameter is ``P``, and every construction of that class in the file passes a bare name ``Q``
for ``P`` (by keyword or position), the same name each time. The test is then read as ``Q.A`` is
(the launch line, else the declared default), or stays unknown.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.local_trees import nodes_of


def _owner(tree: ast.AST, attr: str) -> Optional[tuple[str, str, int]]:
    """(class name, parameter, its position after ``self``) of the one ``self.<attr> = <param>``."""
    found: list[tuple[str, str, int]] = []
    seen = 0
    for cls in nodes_of(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
            for node in nodes_of(fn):
                targets = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
                for target in targets:
                    if isinstance(target, ast.Attribute) and target.attr == attr \
                            and isinstance(target.value, ast.Name) and target.value.id == "self":
                        seen += 1
                        value = getattr(node, "value", None)
                        if fn.name == "__init__" and isinstance(node, ast.Assign) and isinstance(value, ast.Name) \
                                and value.id in params[1:]:
                            found.append((cls.name, value.id, params.index(value.id) - 1))
    return found[0] if seen == 1 and len(found) == 1 else None


def _handed(tree: ast.AST, cls: str, param: str, pos: int) -> Optional[str]:
    """The one bare name every ``cls(...)`` of the file passes for ``param``."""
    names: set[str] = set()
    for node in nodes_of(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == cls):
            continue
        given = next((k.value for k in node.keywords if k.arg == param), None)
        if given is None and len(node.args) > pos and not any(isinstance(a, ast.Starred) for a in node.args):
            given = node.args[pos]
        if not isinstance(given, ast.Name):
            return None
        names.add(given.id)
    return next(iter(names)) if len(names) == 1 else None


def self_option(idx: Any, expr: ast.expr) -> Any:
    """``self.N.A`` read as ``Q.A`` (a :class:`preflight.script_index_core.Resolved`), else None."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Attribute)
            and isinstance(expr.value.value, ast.Name) and expr.value.value.id == "self"):
        return None
    tree = getattr(getattr(idx, "script", None), "tree", None)
    if not isinstance(tree, ast.Module):
        return None
    cache = idx.__dict__.setdefault("_self_option_names", {})  # one walk per attribute and script
    if expr.value.attr not in cache:
        owner = _owner(tree, expr.value.attr)
        cache[expr.value.attr] = None if owner is None else _handed(tree, *owner)
    name = cache[expr.value.attr]
    if name is None or name == "self":
        return None
    plain = ast.copy_location(ast.Attribute(value=ast.copy_location(ast.Name(id=name, ctx=ast.Load()), expr),
                                            attr=expr.attr, ctx=ast.Load()), expr)
    return idx.resolve(plain)
