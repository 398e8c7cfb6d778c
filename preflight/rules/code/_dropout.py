"""Shared by the functional-dropout rules (PF116, PF344): the dropout functions, Monte-Carlo dropout words,
the argument that keeps dropout on."""

from __future__ import annotations

import ast
from typing import Optional

DROPOUTS = frozenset({"dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"})
MC_WORDS = ("mc", "monte", "bayes", "mcdropout", "prenet", "uncertain")


def keeps_training_arg(call: ast.Call) -> tuple[bool, Optional[ast.AST]]:
    """Whether the call keeps dropout on regardless of the mode: ``training=True`` (or the third
    positional argument ``True``), or no ``training`` at all (the functional default is True)."""
    for kw in call.keywords:
        if kw.arg == "training":
            return isinstance(kw.value, ast.Constant) and kw.value.value is True, kw
        if kw.arg is None:
            return False, None
    if len(call.args) >= 3:
        arg = call.args[2]
        return isinstance(arg, ast.Constant) and arg.value is True, arg
    return True, None
