"""Shared by the inference-mode rules (PF610, PF611)."""

from __future__ import annotations

import ast
from typing import Optional


def inference_decorator(fn: ast.AST) -> Optional[ast.expr]:
    """``@torch.inference_mode()`` / ``@torch.inference_mode`` / ``@inference_mode()`` (not
    ``mode=False``)."""
    for dec in getattr(fn, "decorator_list", ()):
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
        if name != "inference_mode":
            continue
        if isinstance(dec, ast.Call) and (any(isinstance(a, ast.Constant) and a.value is False for a in dec.args)
                                          or any(k.arg == "mode" for k in dec.keywords)):
            continue
        return dec
    return None
