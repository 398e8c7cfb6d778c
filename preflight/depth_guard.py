"""The depth guard of :func:`preflight.sources.parse_python`: a file whose expressions nest
deeper than :data:`MAX_AST_DEPTH` is refused on every Python version, measured without walking
the expressions too short to be that deep."""

from __future__ import annotations

import ast
from itertools import accumulate
from typing import Callable

# Deeper syntax trees than CPython 3.11+ can parse (its parser stops near 200 nested
# parentheses and a few thousand chained operators) are refused on every version.
MAX_AST_DEPTH = 1000


# Every level of an expression takes at least one character of its own (``-x``, ``a.b``,
# ``f()``), so a node spanning ``n`` characters holds at most about ``n`` levels below it. The
# slack covers the levels that take none: nodes without a position (``comprehension``,
# ``arguments``) and the parts of an f-string, which before 3.12 all span the whole string.
_DEPTH_SLACK = 32


def _depth(tree: ast.AST, chars: Callable[[int, int], int]) -> int:
    """The depth of ``tree`` when it exceeds ``MAX_AST_DEPTH`` (returned as soon as it does),
    else a number at most the limit (iterative: a recursive walk would overflow on what it
    measures). A subtree too short to hold the levels still missing is not walked:
    ``chars(first, last)`` is at least the characters of lines ``first`` to ``last``."""
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, level = stack.pop()
        if level > deepest:
            deepest = level
            if deepest > MAX_AST_DEPTH:
                return deepest
        room = MAX_AST_DEPTH - level - _DEPTH_SLACK
        for child in ast.iter_child_nodes(node):
            start, end = getattr(child, "lineno", None), getattr(child, "end_lineno", None)
            if start is not None and end is not None:
                if start == end:
                    # UTF-8 byte columns: at least the characters between them
                    span = (getattr(child, "end_col_offset", 0) or 0) - (getattr(child, "col_offset", 0) or 0)
                else:
                    span = chars(start, end)
                if span < room:
                    continue
            stack.append((child, level + 1))
    return deepest


_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_FIELDS_OF: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}
_DECORATED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)  # decorators precede the def line


def _statement_fields(kind: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A statement type's fields holding statements, and its other fields."""
    known = _FIELDS_OF.get(kind)
    if known is None:
        fields = getattr(kind, "_fields", ())
        known = _FIELDS_OF[kind] = (tuple(f for f in fields if f in _BLOCK_FIELDS),
                                    tuple(f for f in fields if f not in _BLOCK_FIELDS))
    return known


def _children(node: ast.AST, fields: tuple[str, ...]):
    """The nodes in ``fields`` of ``node``, as ``ast.iter_child_nodes`` gives them."""
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            yield value
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, ast.AST):
                    yield item


def deepest_expression(tree: ast.Module, lines: list[str]) -> int:
    """Depth of the deepest long expression directly under a statement.

    Statements nest at most 100 deep (the indentation limit), so only expressions can be
    deep, and an expression more than ``MAX_AST_DEPTH`` levels deep spans at least that many
    characters: only those are measured, which keeps this check to the statements.
    """
    sums: list[int] = []  # characters before each line (line ends excluded), on first need

    def chars(start: int, end: int) -> int:
        """Characters of lines ``start`` to ``end``, each line's end counted as one."""
        if not 1 <= start <= end <= len(lines):
            return sum(len(line) + 1 for line in lines[start - 1:end])
        if not sums:
            sums.append(0)
            sums.extend(accumulate(map(len, lines)))
        return sums[end] - sums[start - 1] + end - start + 1

    deepest = 0
    stack: list[ast.AST] = list(tree.body)
    while stack:
        stmt = stack.pop()
        # A statement too short for any of its parts to be measured is skipped whole: its parts
        # lie within it (all but a definition's decorators), and a part on one line is measured
        # in UTF-8 bytes, at most 4 per character.
        start, end = stmt.lineno, stmt.end_lineno  # type: ignore[attr-defined]
        if end is not None and type(stmt) not in _DECORATED:
            if start == end:
                size = (stmt.end_col_offset or 0) - stmt.col_offset  # type: ignore[attr-defined]
            else:
                size = 4 * chars(start, end)
            if size <= MAX_AST_DEPTH:
                continue
        blocks, parts = _statement_fields(type(stmt))
        for name in blocks:  # statements (and except handlers) under this one
            for child in getattr(stmt, name, None) or ():
                if type(child).__name__ == "match_case":  # Python 3.10+
                    stack.extend(child.body)
                else:
                    stack.append(child)
        for child in _children(stmt, parts):
            start, end = getattr(child, "lineno", None), getattr(child, "end_lineno", None)
            if start is None or end is None:
                continue
            if end == start:
                span = (getattr(child, "end_col_offset", 0) or 0) - (getattr(child, "col_offset", 0) or 0)
            else:
                span = chars(start, end)
            if span > MAX_AST_DEPTH:
                deepest = max(deepest, _depth(child, chars))
                if deepest > MAX_AST_DEPTH:
                    return deepest
    return deepest
