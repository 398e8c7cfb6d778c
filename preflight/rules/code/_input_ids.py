"""Shared by the rules on token ids used as labels (PF488, PF590): what reads as a batch's input_ids."""

from __future__ import annotations

import ast

from preflight.rules._pf414_support import call_last, const_str

_COPIES = frozenset({"clone", "copy", "deepcopy", "list", "detach", "tolist"})
# tensor methods that keep the values (and so the pad ids) of the row: views, moves, casts
_KEEPS = frozenset({"squeeze", "unsqueeze", "view", "reshape", "flatten", "to", "long", "contiguous", "cpu"})


def is_input_ids(expr: ast.AST) -> bool:
    """``input_ids``, ``enc["input_ids"]``, ``enc.input_ids``, ``x["input_ids"][0]``, and copies of them
    (``.clone()``, ``.copy()``, ``copy.deepcopy(...)``, ``list(...)``)."""
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in _COPIES and not expr.args:
            return is_input_ids(expr.func.value)
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in _KEEPS:
            return is_input_ids(expr.func.value)
        if call_last(expr) in _COPIES and len(expr.args) == 1:
            return is_input_ids(expr.args[0])
        return False
    if isinstance(expr, ast.Name):
        return expr.id == "input_ids"
    if isinstance(expr, ast.Attribute):
        return expr.attr == "input_ids"
    if isinstance(expr, ast.Subscript):
        if const_str(expr.slice) == "input_ids":
            return True
        return isinstance(expr.slice, (ast.Constant, ast.Slice)) and is_input_ids(expr.value)
    return False
