"""Helpers of PF432 and PF518: which config key an expression reads."""

from __future__ import annotations

import ast
from typing import Optional


def config_key(expr: ast.AST) -> Optional[str]:
    """``learning_rate`` for ``cfg["training"]["learning_rate"]``, ``cfg.train.lr``, ``cfg.get("lr")``."""
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
        return expr.slice.value
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get" \
            and expr.args and isinstance(expr.args[0], ast.Constant) and isinstance(expr.args[0].value, str):
        return expr.args[0].value
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, (ast.Attribute, ast.Name, ast.Subscript)) \
            and not (isinstance(expr.value, ast.Name) and expr.value.id == "self"):
        return expr.attr
    return None
