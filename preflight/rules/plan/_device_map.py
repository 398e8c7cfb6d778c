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
