"""Shared by the device_map rules (PF242, PF332): the names handed to accelerate or a Trainer to train."""

from __future__ import annotations

import ast
from typing import Any, Optional

_TRAINER_PACKAGES = ("transformers", "trl")


def trained_names(idx: Any, function: Optional[str]) -> dict[str, int]:
    """Names handed to ``accelerator.prepare(...)`` / ``prepare_model(...)`` or to a Transformers/TRL
    Trainer's ``model`` in ``function``, with the line of that call."""
    found: dict[str, int] = {}
    for site in idx.calls:
        if site.function != function:
            continue
        call = site.call
        last = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
        handed: list[ast.expr] = []
        if last in ("prepare", "prepare_model") and isinstance(call.func, ast.Attribute):
            handed = list(call.args)
        elif last.endswith("Trainer") and (site.qualified or "").startswith(_TRAINER_PACKAGES):
            handed = [kw.value for kw in call.keywords if kw.arg == "model"] or call.args[:1]
        for arg in handed:
            if isinstance(arg, ast.Name):
                found.setdefault(arg.id, site.line)
    return found


def fixed_gpu(expr: Optional[ast.expr]) -> Optional[str]:
    """``0``, ``"cuda:0"``, ``torch.device("cuda:0")``/``("cuda", 0)`` as written, or None (a per-process
    index, ``"cuda"``, ``"auto"``, anything computed)."""
    if isinstance(expr, ast.Constant):
        value = expr.value
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, str) and value.startswith("cuda:") and value[5:].isdigit():
            return repr(value)
        return None
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "device":
        args = expr.args
        if len(args) == 1 and fixed_gpu(args[0]) and isinstance(args[0], ast.Constant) \
                and isinstance(args[0].value, str):
            return ast.unparse(expr)
        if len(args) == 2 and isinstance(args[1], ast.Constant) and isinstance(args[1].value, int):
            return ast.unparse(expr)
    return None
