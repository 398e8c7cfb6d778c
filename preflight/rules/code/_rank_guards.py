"""Shared by the rules on work that some ranks do (PF472, PF473, PF553): rank-named expressions and tests
that let only chosen ranks through."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

# any of these in a test (or in a helper's name) and the save is taken as chosen per rank
_RANK_WORDS = ("rank", "main", "master", "primary", "global_zero", "process_index", "gpu", "device",
               "is_local_zero", "is_world_process_zero", "is_chief", "leader", "local_zero", "world")


def rankish(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        word = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else (
            sub.value if isinstance(sub, ast.Constant) and isinstance(sub.value, str) else None)
        if isinstance(word, str) and any(w in word.lower() for w in _RANK_WORDS):
            return True
    return False


def only_rank_test(test: ast.expr) -> bool:
    """A test that lets only chosen ranks through: rank-named, and no ``or`` alternative that is
    not (``is_main_process or distributed_type == DEEPSPEED`` lets every DeepSpeed rank in)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return all(only_rank_test(v) for v in test.values)
    return rankish(test)


_ENTRY_POINTS = frozenset({"main", "_main", "main_worker", "run_main"})


def guarded_by_rank(ctx: FileContext, node: ast.AST, fn_node: ast.AST) -> bool:
    """``node`` sits under a rank test in its function, or the function returns early on one
    (``if rank != 0: return``) before it, or is itself a rank-named helper (``save_on_master``)."""
    cur: Optional[ast.AST] = node
    while cur is not None and cur is not fn_node:
        parent = ctx.parent(cur)
        if isinstance(parent, (ast.If, ast.IfExp, ast.While)) and rankish(parent.test):
            return True
        cur = parent
    name = getattr(fn_node, "name", "")
    if name not in _ENTRY_POINTS and rankish(ast.Name(id=name)):
        return True
    line = getattr(node, "lineno", 0)
    for sub in ast.walk(fn_node):
        if isinstance(sub, ast.If) and sub.lineno < line and rankish(sub.test) and any(
                isinstance(s, (ast.Return, ast.Raise, ast.Continue)) for s in sub.body):
            return True
    return False
