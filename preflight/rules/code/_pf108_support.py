"""Fix operations and helpers shared by PF108 and PF109 (registered at import)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis.accumulation import is_number, text
from preflight.analysis.scopes import ScopeIndex
from preflight.diagnostics import Severity
from preflight.fix import register_operation

if TYPE_CHECKING:
    import libcst

_ATOMS = ("Name", "Attribute", "Call", "Subscript", "Integer", "Float")


def _paren(node: libcst.BaseExpression) -> libcst.BaseExpression:
    import libcst

    if node.lpar or type(node).__name__ in _ATOMS:
        return node
    return node.with_changes(lpar=[libcst.LeftParen()], rpar=[libcst.RightParen()])


@register_operation("divide")
def _divide(node: libcst.CSTNode, params: dict[str, str]) -> libcst.CSTNode:
    """``v`` -> ``v / N`` (``(v / N)`` when ``paren`` is set: a receiver of ``.backward()``)."""
    import libcst

    if not isinstance(node, libcst.BaseExpression):
        raise TypeError(f"cannot divide a {type(node).__name__}")
    left = node
    if not left.lpar:
        loose = type(left).__name__ not in (*_ATOMS, "BinaryOperation")
        low = isinstance(left, libcst.BinaryOperation) and not isinstance(
            left.operator, (libcst.Multiply, libcst.Divide))
        if loose or low:
            left = _paren(left)
    by = libcst.parse_expression(params["by"])
    out = libcst.BinaryOperation(left=left, operator=libcst.Divide(), right=_paren(by))
    if params.get("paren") == "1":
        out = out.with_changes(lpar=[libcst.LeftParen()], rpar=[libcst.RightParen()])
    return out


@register_operation("undivide")
def _undivide(node: libcst.CSTNode, params: dict[str, str]) -> libcst.CSTNode:
    """``v / N``, ``v * (1 / N)``, ``v.div(N)`` -> ``v`` (the kept operand named by ``keep``)."""
    import libcst

    keep = params.get("keep", "left")
    if isinstance(node, libcst.BinaryOperation):
        out = node.left if keep == "left" else node.right
    elif isinstance(node, libcst.Call) and isinstance(node.func, libcst.Attribute):
        out = node.func.value
    else:
        raise TypeError(f"cannot remove a division from a {type(node).__name__}")
    if node.lpar and not out.lpar:
        out = out.with_changes(lpar=node.lpar, rpar=node.rpar)
    return out


def optimizer_severity(scopes: ScopeIndex, optimizer: Optional[ast.AST]) -> tuple[Severity, str]:
    """Error for plain SGD (the gradient scale is the step size); warning otherwise."""
    if isinstance(optimizer, ast.Call):
        qual = scopes.imports.qualify(optimizer.func) or ""
        if qual.rsplit(".", 1)[-1] == "SGD":
            return Severity.ERROR, "with SGD the gradient scale is the step size"
    return Severity.WARNING, ("adaptive optimizers (Adam) partly absorb a constant gradient scale, "
                              "but gradient clipping, coupled weight decay and epsilon do not")


def simple_divisor(node: ast.expr) -> bool:
    """A divisor that can be repeated in a fix without side effects."""
    cur: ast.AST = node
    while isinstance(cur, ast.Attribute):
        cur = cur.value
    return isinstance(cur, ast.Name) or is_number(cur)


def short(node: Optional[ast.AST], limit: int = 60) -> str:
    out = text(node)
    return out if len(out) <= limit else out[:limit - 3] + "..."
