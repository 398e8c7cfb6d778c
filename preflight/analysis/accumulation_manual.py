"""Whether a LightningModule class optimizes by hand (``automatic_optimization = False`` as a class attribute,
assigned on ``self``, or an ``automatic_optimization`` property of the class), for the accumulation analysis
of :mod:`preflight.analysis.accumulation` and the rules about manual optimization."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from preflight.analysis.accumulation_guards import text
from preflight.analysis.scopes import ScopeIndex

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext


def manual_optimization(ctx: FileContext, scopes: ScopeIndex, cls: object) -> bool:
    for klass in cls.mro():  # type: ignore[attr-defined]
        for stmt in klass.node.body:  # ``automatic_optimization = False`` as a class attribute
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else (
                stmt.target if isinstance(stmt, ast.AnnAssign) else None)
            if isinstance(target, ast.Name) and target.id == "automatic_optimization" and \
                    isinstance(stmt.value, ast.Constant) and stmt.value.value is False:
                return True
    for assign in ctx.nodes(ast.Assign):
        if any(text(t) == "self.automatic_optimization" for t in assign.targets) and not (
                isinstance(assign.value, ast.Constant) and assign.value.value is True):
            fn = scopes.function_of(assign)
            owner = fn.method_class()
            if owner is cls or (owner is not None and any(c is owner for c in cls.mro())):  # type: ignore[attr-defined]
                return True
    for fn in scopes.functions.values():
        if fn.name == "automatic_optimization" and fn.method_class() is cls:
            return True
    return False
