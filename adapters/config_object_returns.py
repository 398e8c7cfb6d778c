"""A config object an entry function builds and returns, bound by its caller in the same script:
ermongroup/ddim ``main.py:17-197,212`` (e8df66c)::

    def parse_args_and_config():
        ...
        with open(os.path.join("configs", args.config), "r") as f:
            config = yaml.safe_load(f)
        new_config = dict2namespace(config)
        ...
        return args, new_config

    def main():
        args, config = parse_args_and_config()

``config`` in ``main`` is the tree ``new_config`` holds in ``parse_args_and_config``. Only a function
of the entry script whose last statement is its one ``return`` of names (or a tuple of names) is
followed; a name it rebinds after the object was built, a second ``return``, a call with a different
count of targets than the tuple returned, or a name bound twice in the caller leaves the object
unknown (never guessed).
"""

from __future__ import annotations

import ast
from typing import Any, Optional


def _returns(fn: ast.AST) -> list[ast.Return]:
    """The ``return`` statements of ``fn`` itself (not of nested functions or classes)."""
    out: list[ast.Return] = []
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return):
            out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def returned(fn: ast.AST, local: dict[str, Any], is_tree: Any) -> Optional[tuple[Any, ...]]:
    """What ``fn`` returns, one entry per returned element: the tree a name holds in ``local`` (when
    ``is_tree`` says it is one), else None; None for the whole when the return is not one simple
    statement at the end of the function."""
    if not isinstance(fn, ast.FunctionDef) or not fn.body:
        return None
    rets = _returns(fn)
    last = fn.body[-1]
    if len(rets) != 1 or rets[0] is not last or last.value is None:
        return None
    value = last.value
    elts = value.elts if isinstance(value, ast.Tuple) else [value]
    if not all(isinstance(e, ast.Name) for e in elts):
        return None
    got = tuple(local.get(e.id) if isinstance(e, ast.Name) and is_tree(local.get(e.id)) else None for e in elts)
    if all(g is None for g in got):
        return None
    return got if isinstance(value, ast.Tuple) else (got[0],)


def bind_returned(target: ast.AST, value: ast.AST, returns: dict[str, tuple[Any, ...]],
                  local: dict[str, Any]) -> bool:
    """``a, cfg = f()`` / ``cfg = f()`` with ``f`` an entry function in ``returns``: its trees bound in
    ``local``. True when the statement was such a call (bound or, on a mismatch, left unknown)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in returns):
        return False
    got = returns[value.func.id]
    names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
    if len(names) != len(got):
        return True
    for name, tree in zip(names, got):
        if not isinstance(name, ast.Name) or tree is None:
            continue
        if name.id in local and local[name.id] is not tree:
            local[name.id] = {}  # bound twice: not followed
        else:
            local[name.id] = tree
    return True
