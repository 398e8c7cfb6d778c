"""Shared by the rules on work that some ranks do (PF472, PF473, PF553): rank-named expressions and tests
that let only chosen ranks through."""

from __future__ import annotations

import ast

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
