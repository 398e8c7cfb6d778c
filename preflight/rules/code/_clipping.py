"""Shared by the gradient-clipping rules (PF605, PF606): what is a clipping call."""

from __future__ import annotations

import ast

_CLIPS = ("clip_grad_norm_", "clip_grad_value_", "clip_grad_norm")


def is_clip(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name in _CLIPS
