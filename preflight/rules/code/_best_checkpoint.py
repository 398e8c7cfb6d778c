"""Shared by the rules on the best checkpoint a Lightning job keeps (PF441, PF585)."""

from __future__ import annotations

import ast
from typing import Optional


def kw(call: ast.Call, name: str) -> Optional[ast.expr]:
    return next((k.value for k in call.keywords if k.arg == name), None)


def tracks_best(call: ast.Call) -> bool:
    """``ModelCheckpoint(monitor="val_loss", ...)`` keeping at least one best checkpoint."""
    monitor = kw(call, "monitor")
    if monitor is None or (isinstance(monitor, ast.Constant) and monitor.value is None):
        return False
    top_k = kw(call, "save_top_k")
    return not (isinstance(top_k, ast.Constant) and top_k.value == 0)


def method_on(node: ast.AST, attr: str) -> Optional[str]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == attr:
        return ast.unparse(node.func.value)
    return None
