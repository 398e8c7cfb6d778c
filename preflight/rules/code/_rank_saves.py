"""The saves of a file that already pick their process, shared by PF472 (DDP) and PF1112 (Accelerate)."""

from __future__ import annotations

import ast

from preflight.analysis.context import FileContext
from preflight.rules.code._rank_guards import rankish


def rank_aware_saves(ctx: FileContext) -> bool:
    """Some save of the file is already chosen by a rank test: the project picks its saving rank
    itself, through paths (flags, wrappers, trainer objects) a file-local call graph cannot follow."""
    for node in ctx.nodes(ast.If):
        if rankish(node.test) and any(
                isinstance(sub, ast.Call) and "save" in ast.unparse(sub.func).rsplit(".", 1)[-1].lower()
                for stmt in node.body for sub in ast.walk(stmt)):
            return True
    return False


def per_rank_or_buffer(fn_node: ast.AST, path: ast.expr) -> bool:
    """The path names the rank (one file per process), or is an in-memory buffer."""
    if rankish(path):
        return True
    if isinstance(path, ast.Name):
        if "buf" in path.id.lower():
            return True
        for node in ast.walk(fn_node):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == path.id
                                                    for t in node.targets) and (
                    rankish(node.value) or "BytesIO" in ast.unparse(node.value)):
                return True
    return False
