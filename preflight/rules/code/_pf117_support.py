"""Order of two statements of one loop iteration, for PF117 and PF118."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.context import FileContext

# what makes a statement below the common block run only sometimes
_CONDITIONS: tuple[type, ...] = (ast.If, ast.Try, ast.IfExp, ast.BoolOp, ast.ExceptHandler, ast.comprehension,
                                 *((ast.Match,) if hasattr(ast, "Match") else ()))  # ast.Match: Python 3.10+
# what makes it run in another scope or another loop
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.For, ast.AsyncFor,
           ast.While)


def _segment(ctx: FileContext, node: ast.AST, stop: ast.AST) -> list[ast.AST]:
    """``node`` and its ancestors below ``stop`` (``stop`` excluded)."""
    out = [node]
    for anc in ctx.ancestors(node):
        if anc is stop:
            return out
        out.append(anc)
    return []


def runs_after(ctx: FileContext, first: ast.AST, second: ast.AST, *,
               first_may_be_conditional: bool, second_may_be_conditional: bool) -> bool:
    """Whether ``second`` runs after ``first`` in the same pass through the innermost statement
    list holding both: the two sit in one block (not in exclusive ``if``/``else`` or
    ``try``/``except`` branches), ``first``'s statement comes earlier, neither sits in a loop or
    function of its own below that block, and each sits under an ``if`` only where allowed."""
    on_first = {id(n) for n in (first, *ctx.ancestors(first))}
    common: Optional[ast.AST] = None
    for node in (second, *ctx.ancestors(second)):
        if id(node) in on_first:
            common = node
            break
    if common is None or common is first or common is second:
        return False
    seg_first = _segment(ctx, first, common)
    seg_second = _segment(ctx, second, common)
    if not seg_first or not seg_second:
        return False
    top_first, top_second = seg_first[-1], seg_second[-1]
    block = None
    for name in ("body", "orelse", "finalbody"):
        stmts = getattr(common, name, None)
        if isinstance(stmts, list) and top_first in stmts:
            block = stmts
            break
    if block is None or top_second not in block or block.index(top_first) >= block.index(top_second):
        return False
    for seg, allowed in ((seg_first, first_may_be_conditional), (seg_second, second_may_be_conditional)):
        for node in seg[1:]:
            if isinstance(node, _SCOPES):
                return False
            if isinstance(node, _CONDITIONS) and not allowed:
                return False
    return True
