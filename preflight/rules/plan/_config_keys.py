"""Shared by the rules on config values read in code (PF617, PF286): the key a subscript, attribute or get()
reads."""

from __future__ import annotations

import ast
from typing import Optional

_CONFIG_WORDS = ("cfg", "conf", "args", "opt", "hparams", "params", "setting", "hp")


def config_key_of(node: ast.AST) -> Optional[str]:
    """``config["k"]``, ``cfg.k``, ``config.get("k")`` -> ``k``."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    if isinstance(node, ast.Attribute) and any(
            w in part.lower() for part in ast.unparse(node.value).split(".") for w in _CONFIG_WORDS):
        return node.attr
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None
