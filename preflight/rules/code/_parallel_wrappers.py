"""Names bound to an ``nn.DataParallel``/``DistributedDataParallel`` wrapper of a model (shared by PF294 and
PF150)."""

from __future__ import annotations

import ast

from preflight.analysis.context import FileContext
from preflight.rules._pf4_support import qualify

WRAPPERS = ("DataParallel", "DistributedDataParallel")
_MOVES = ("cuda", "to", "cpu", "float", "train")


def wrapper_call(assign: ast.Assign) -> ast.expr:
    """The call an assignment binds, under device moves (``nn.DataParallel(model).cuda()``)."""
    value = assign.value
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in _MOVES and isinstance(value.func.value, ast.Call):
        value = value.func.value
    return value


def wrapper_assigns(ctx: FileContext) -> list[ast.Assign]:
    """Assignments of one plain name to ``DataParallel(...)``/``DistributedDataParallel(...)`` (or an imported
    ``DDP(...)``), device moves included, in source order."""
    out = []
    for assign in ctx.nodes(ast.Assign):
        value = wrapper_call(assign)
        if isinstance(value, ast.Call) and len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name):
            last = qualify(ctx, value.func).rsplit(".", 1)[-1]
            if last in WRAPPERS or (last == "DDP" and isinstance(value.func, ast.Name)):
                out.append(assign)
    return out


def wrapped_names(ctx: FileContext) -> dict[str, ast.Assign]:
    """``{name: its last wrapping assignment}`` over ``wrapper_assigns``."""
    return {assign.targets[0].id: assign for assign in wrapper_assigns(ctx)}  # type: ignore[attr-defined]
