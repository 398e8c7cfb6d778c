"""Syntactic shape tests used by :mod:`preflight.analysis.bindings`."""

from __future__ import annotations

import ast
from typing import Union

from preflight.analysis import tensor_ops as tables

_BINDING_VALUES = (ast.Name, ast.Attribute, ast.Subscript, ast.IfExp, ast.Await, ast.Call,
                   ast.Tuple, ast.List, ast.Starred)


def may_bind(value: ast.AST) -> bool:
    """Whether an expression of this shape can ever be classified."""
    return isinstance(value, _BINDING_VALUES)


def binding_deps(value: ast.AST) -> set[str]:
    """Identifiers (names, attribute names) in the parts of an expression ``classify`` reads."""
    out: set[str] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        kind = type(node)  # syntax tree classes are never subclassed: compare types, not isinstance
        if kind is ast.Name:
            out.add(node.id)  # type: ignore[attr-defined]
        elif kind is ast.Attribute:
            out.add(node.attr)  # type: ignore[attr-defined]
            stack.append(node.value)  # type: ignore[attr-defined]
        elif kind is ast.Call:
            stack.append(node.func)  # type: ignore[attr-defined]
            stack.extend(node.args)  # type: ignore[attr-defined]
            stack.extend(k.value for k in node.keywords)  # type: ignore[attr-defined]
        elif kind in _VALUE_HOLDERS:
            stack.append(node.value)  # type: ignore[attr-defined]
        elif kind is ast.IfExp:
            stack.extend((node.body, node.orelse))  # type: ignore[attr-defined]
        elif kind is ast.Tuple or kind is ast.List:
            stack.extend(node.elts)  # type: ignore[attr-defined]
    return out


_VALUE_HOLDERS = frozenset({ast.Subscript, ast.Await, ast.Starred})


def may_unpack(value: ast.AST) -> bool:
    if isinstance(value, (ast.Tuple, ast.List, ast.Starred)):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, (ast.Attribute, ast.Name)) and (
        getattr(value.func, "attr", getattr(value.func, "id", "")) in (
            *tables.PREPARE, "initialize", "optimizers"))


def is_staticmethod(node: Union[ast.FunctionDef, ast.AsyncFunctionDef]) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def sets_requires_grad_false(body: list[ast.stmt]) -> bool:
    for stmt in body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) and (
                stmt.value.value is False) and any(
                isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in stmt.targets):
            return True
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            args = stmt.value.args
            if isinstance(func, ast.Attribute) and func.attr == "requires_grad_" and args and (
                    isinstance(args[0], ast.Constant) and args[0].value is False):
                return True
    return False


def short_call(call: ast.AST) -> str:
    """A call as evidence names it: its text, or ``func(...)`` when that is long. Any other
    expression (a binding may come from one) is its text, cut when long."""
    try:
        text = ast.unparse(call)
    except Exception:  # pragma: no cover - unparse handles every parsed tree
        return "call"
    if len(text) > 48:
        if not isinstance(call, ast.Call):
            return text[:44] + "..."
        func = ast.unparse(call.func)
        text = f"{func}(...)" if len(func) < 44 else "call"
    return text
