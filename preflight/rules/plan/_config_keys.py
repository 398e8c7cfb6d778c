"""Shared by the rules on config values read in code (PF617, PF286, PF196): the key a subscript, attribute or get()
reads."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

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


def truth_tests(tree: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
    """(statement or call to report, the value whose truthiness is taken): ``bool(v)``, ``if v:``,
    ``if not v:``, ``x if v else y``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool" \
                and len(node.args) == 1 and not node.keywords:
            yield node, node.args[0]
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            test = node.test
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test = test.operand
            yield test, test


def string_handled(tree: ast.AST, key: str) -> bool:
    """The code compares the key with a string or lower-cases it: it reads the string itself."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            if any(config_key_of(p) == key for p in parts) and any(
                    isinstance(c, ast.Constant) and isinstance(c.value, str)
                    for p in parts for c in ast.walk(p)):
                return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "lower", "upper", "casefold", "strip") and config_key_of(node.func.value) == key:
            return True
    return False
