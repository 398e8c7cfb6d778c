"""nanoGPT's accumulation shape for :mod:`preflight.analysis.accumulation` (split out of it):
``for micro_step in range(N):`` holds the backward on a fresh loss each pass, and the optimizer
steps after that loop in the enclosing one, once every N backward passes."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis.scopes import FunctionInfo, LoopInfo, ScopeIndex

if TYPE_CHECKING:
    from preflight.analysis.accumulation import AccumSite, _Analysis
    from preflight.analysis.context import FileContext


def range_count(node: ast.AST) -> Optional[ast.expr]:
    """``N`` of ``range(N)`` (a name, attribute or number other than 0 and 1)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
            and len(node.args) == 1 and not node.keywords):
        return None
    count = node.args[0]
    if _is_number(count) and count.value in (0, 1):  # type: ignore[attr-defined]
        return None
    return count if isinstance(count, (ast.Name, ast.Attribute, ast.Constant, ast.Subscript)) else None


def _fresh_loss_per_micro_step(ctx: FileContext, an: _Analysis, site: AccumSite, inner: ast.For) -> bool:
    """The backward's loss is computed anew in each pass of ``inner`` (a forward inside it) and
    does not depend on the loop counter: micro-batches, not the heads of one output
    (``for k in range(3): out[:, k].mean().backward()`` sums losses of one forward on purpose)."""
    counter = {n.id for n in ast.walk(inner.target) if isinstance(n, ast.Name)}
    names = {n.id for n in ast.walk(site.value) if isinstance(n, ast.Name)}
    if names & counter:
        return False
    fresh = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) for n in ast.walk(site.value))
    for name in names:
        for bound in an.assigned.get((an.scopes.scope_of_name(name, site.function), name), ()):
            if not _inside(ctx, bound, inner):
                continue
            value = _bound_value(bound)
            if value is not None and counter & {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}:
                return False
            fresh = fresh or isinstance(value, ast.Call)
    return fresh


def micro_step_window(ctx: FileContext, scopes: ScopeIndex, an: _Analysis, site: AccumSite,
                       loop: LoopInfo, resets: dict[FunctionInfo, list[ast.AST]]) -> None:
    """``for micro_step in range(N): ... backward()`` directly inside a loop whose body steps the
    optimizer after it: one step every N backward passes."""
    inner = loop.node
    outer = loop.parent
    if not isinstance(inner, ast.For) or outer is None or inner.orelse:
        return
    count = range_count(inner.iter)
    if count is None or not _fresh_loss_per_micro_step(ctx, an, site, inner):
        return
    end = inner.end_lineno or inner.lineno
    for tc in scopes.training_calls:
        if tc.kind != "step" or tc.function is not site.function or scopes.loop_of(tc.call) is not outer:
            continue
        if tc.call.lineno <= end:
            continue
        site.loop, site.window, site.modulus, site.step = outer, inner, count, tc.call
        site.zeroed_every_micro_batch = any(_inside(ctx, node, inner) for node in resets.get(site.function, ()))
        site.optimizer = an.optimizer_of(tc.call, site.function)
        return


def _is_number(node: ast.AST, value: Optional[float] = None) -> bool:
    from preflight.analysis.accumulation import is_number  # (accumulation imports this module)

    return is_number(node, value)


def _inside(ctx: FileContext, node: ast.AST, outer: ast.AST) -> bool:
    from preflight.analysis.accumulation import _inside as inside

    return inside(ctx, node, outer)


def _bound_value(bound: ast.AST) -> Optional[ast.AST]:
    from preflight.analysis.accumulation import _bound_value as bound_value

    return bound_value(bound)
