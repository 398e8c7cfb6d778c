"""Shared by the rules on how a loader is sharded (PF447, PF467, PF498): the one call a name is bound to, a
loader's DistributedSampler."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.rules._pf414_support import call_last


def bound_values(fn: ast.AST, name: str) -> list[ast.expr]:
    """The values of every ``name = <value>`` of the function (one target), in walk order."""
    return [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name]


def bound_call(fn: ast.AST, name: str, last: str) -> Optional[ast.Call]:
    """The one ``name = <...>.last(...)`` of the function."""
    found = [v for v in bound_values(fn, name) if isinstance(v, ast.Call) and call_last(v) == last]
    return found[0] if len(found) == 1 else None


def distributed_sampler(fn: ast.AST, loader: ast.Call) -> Optional[ast.Call]:
    kw = next((k.value for k in loader.keywords if k.arg == "sampler"), None)
    if isinstance(kw, ast.Call) and call_last(kw) == "DistributedSampler":
        return kw
    if isinstance(kw, ast.Name):
        return bound_call(fn, kw.id, "DistributedSampler")
    return None
