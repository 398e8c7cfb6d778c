"""Shared by PF177 and PF178: whether a call sits in test code, where a debugging setting is on purpose."""

from __future__ import annotations

import ast
import os

from preflight.analysis.context import FileContext


def in_test_code(ctx: FileContext, node: ast.AST) -> bool:
    """A test file (``test_*.py``, ``*_test.py``, ``conftest.py``) or a ``test*`` function / fixture."""
    name = os.path.basename(str(ctx.parsed.source.path))
    if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
        return True
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                anc.name.startswith("test") or any("fixture" in ast.unparse(d) for d in anc.decorator_list)):
            return True
    return False
