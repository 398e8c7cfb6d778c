"""Shared by the rules on hydra.utils.instantiate calls (PF554, PF275)."""

from __future__ import annotations

import ast


def is_instantiate(qual: str, call: ast.Call) -> bool:
    if qual:
        return qual.startswith("hydra.") and qual.endswith(".instantiate")
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == "instantiate" and "hydra" in ast.unparse(func)
