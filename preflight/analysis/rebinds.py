"""What a loop body rebinds on every pass, and the keys of container references (split out
of :mod:`preflight.analysis.scopes`, which re-exports them)."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.syntax import walk


def unconditional_rebinds(body: list[ast.stmt]) -> set[str]:
    """Names (and ``self.x``) bound or cleared on every pass through ``body``."""
    out: set[str] = set()
    stack = list(body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.Assign):
            reads = _read_keys(stmt.value)
            for target in stmt.targets:
                _target_keys(target, out, reads)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            _target_keys(stmt.target, out, _read_keys(stmt.value))
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            if isinstance(func, ast.Attribute) and func.attr == "clear" and not stmt.value.args:
                key = container_key_text(func.value)
                if key:
                    out.add(key)
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
                    key = container_key_text(target.value)
                    if key:
                        out.add(key)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            stack.extend(stmt.body)
        elif isinstance(stmt, ast.Try):
            stack.extend(stmt.body)
            stack.extend(stmt.finalbody)
    return out


def _target_keys(target: ast.AST, out: set[str], reads: set[str]) -> None:
    """Keys a target rebinds; ``total = total + x`` extends ``total`` and is no rebinding."""
    if isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            _target_keys(elt, out, reads)
    elif isinstance(target, ast.Starred):
        _target_keys(target.value, out, reads)
    elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
        key = container_key_text(target.value)  # ``c[:] = []`` empties c
        if key:
            out.add(key)
    else:
        key = container_key_text(target)
        if key and key not in reads:
            out.add(key)


def _read_keys(value: ast.AST) -> set[str]:
    """``container_key_text`` of every node of ``value``."""
    out: set[str] = set()
    name_t, attr_t = ast.Name, ast.Attribute
    for node in walk(value):
        kind = type(node)
        if kind is name_t:
            out.add(node.id)  # type: ignore[attr-defined]
        elif kind is attr_t:
            base = node.value  # type: ignore[attr-defined]
            if type(base) is name_t and base.id in ("self", "cls"):
                out.add(f"self.{node.attr}")  # type: ignore[attr-defined]
    return out


def container_key_text(node: ast.AST) -> Optional[str]:
    """``name`` or ``self.attr`` for a container reference, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in (
            "self", "cls"):
        return f"self.{node.attr}"
    return None
