"""Python config files evaluated as literals, never executed: what the OpenMMLab reader
(:mod:`.mmengine_loader`) and the detectron2 LazyConfig reader (:mod:`.lazyconfig`) share.

A config file's values are built from constants, negative numbers, lists, tuples, ``{...}`` with
string keys and ``dict(key=...)``; each key remembers the line it was set on. Whatever else a value
is (a name, a call, an operator) is the reader's to evaluate (:meth:`LiteralFile.ev_other`), and
:data:`UNKNOWN` when it cannot say."""

from __future__ import annotations

import ast
from typing import Any, Dict, Tuple

Where = Dict[tuple, Tuple[str, int]]  # key path -> (shown path, line)


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN = _Unknown()


class LiteralFile:
    """One config file's evaluation: ``shown`` (its display path) and ``where`` (key path -> line)."""

    shown: str
    where: Where

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.where: Where = {}

    def keyword(self, name: str, value: ast.expr, path: tuple) -> Any:
        """The value of key ``name`` under ``path``, its line remembered."""
        at = (*path, name)
        self.where[at] = (self.shown, value.lineno)
        return self.ev(value, at)

    def ev(self, node: ast.AST, path: tuple) -> Any:
        if isinstance(node, ast.Constant):
            return node.value if not isinstance(node.value, (bytes, type(Ellipsis))) else UNKNOWN
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.ev(node.operand, path)
            return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else UNKNOWN
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.ev(e, (*path, i)) for i, e in enumerate(node.elts)]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.Dict):
            out: dict = {}
            for k, v in zip(node.keys, node.values):
                if not isinstance(k, ast.Constant) or not isinstance(k.value, str):
                    return UNKNOWN
                out[k.value] = self.keyword(k.value, v, path)
            return out
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
                and not node.args:
            if any(k.arg is None for k in node.keywords):
                return UNKNOWN  # ``dict(**other)``: not followed
            return {k.arg: self.keyword(str(k.arg), k.value, path) for k in node.keywords}
        return self.ev_other(node, path)

    def ev_other(self, node: ast.AST, path: tuple) -> Any:
        """A value that is no literal: the reader's names, calls and operators."""
        return UNKNOWN
