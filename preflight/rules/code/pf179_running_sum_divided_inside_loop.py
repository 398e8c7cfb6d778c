"""PF179 running-sum-divided-inside-loop: a metric summed over a loop (``total += x``) is divided by the
iteration count inside the loop body (``total = total / (step + 1)``), so every later iteration adds to an
already averaged value and divides it again."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples


def _index_name(loop: ast.For) -> Optional[str]:
    """The loop's counter: ``i`` of ``for i, b in enumerate(...)`` or of ``for i in range(...)``."""
    it, target = loop.iter, loop.target
    if not isinstance(it, ast.Call) or not isinstance(it.func, ast.Name):
        return None
    if it.func.id == "enumerate" and isinstance(target, ast.Tuple) and target.elts \
            and isinstance(target.elts[0], ast.Name):
        return target.elts[0].id
    if it.func.id == "range" and isinstance(target, ast.Name):
        return target.id
    return None


def _body_statements(stmts: list[ast.stmt]) -> Iterable[tuple[ast.stmt, bool]]:
    """The statements of a loop body with whether each sits under an ``if``/``try``/``with`` of it; nested
    loops, functions and classes are not entered."""
    for st in stmts:
        yield st, False
        if isinstance(st, (ast.If, ast.Try, ast.With)):
            inner: list[ast.stmt] = []
            for field in ("body", "orelse", "finalbody"):
                inner.extend(getattr(st, field, []) or [])
            for handler in getattr(st, "handlers", []) or []:
                inner.extend(handler.body)
            for sub, guarded in _body_statements(inner):
                yield sub, guarded or isinstance(st, (ast.If, ast.Try))


def _count_expr(node: ast.AST, index: str) -> bool:
    """``index + 1`` / ``1 + index`` / ``(index + 1)``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        pair = (node.left, node.right)
        return any(isinstance(a, ast.Name) and a.id == index and isinstance(b, ast.Constant) and b.value == 1
                   for a, b in (pair, pair[::-1]))
    return False


def _divides(st: ast.stmt, index: str) -> Optional[str]:
    """The name ``st`` divides in place by the iteration count: ``s = s / (i + 1)`` or ``s /= (i + 1)``."""
    if isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Div) and isinstance(st.target, ast.Name) \
            and _count_expr(st.value, index):
        return st.target.id
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
        name, value = st.targets[0].id, st.value
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Div) and isinstance(value.left, ast.Name) \
                and value.left.id == name and _count_expr(value.right, index):
            return name
    return None


def _sums(st: ast.stmt) -> Optional[str]:
    if isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Add) and isinstance(st.target, ast.Name):
        return st.target.id
    return None


@register
class RunningSumDividedInsideLoop(Rule):
    code = "PF179"
    name = "running-sum-divided-inside-loop"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("A running sum (`total += x`) is divided by the iteration count inside the loop "
               "(`total = total / (step + 1)`): each later batch adds to an average and divides again, so the "
               "reported mean is wrong")
    frameworks = ("pytorch",)
    needs_text = ("+ 1)",)
    explanation = """
## What it finds

A `for i, batch in enumerate(...)` (or `for i in range(...)`) loop whose body both adds to a
name (`scores += ...`) and, unconditionally and in the same body, divides that name by the
iteration count in place (`scores = scores / (step + 1)`, `scores /= (step + 1)`).

## Why it matters

The division belongs after the loop: there it turns the sum of `n` values into their mean.
Inside the loop it runs on every iteration, so the next value is added to an average and the
result is divided again: after the loop the number is neither the sum nor the mean (it leans
toward the last batches). DeepSpeed-Chat's reward-model evaluation had exactly this
(`scores = scores / (step + 1)` inside the evaluation loop), and the reported reward score was
wrong until the line moved out of the loop.

## How to fix it

Sum inside the loop and divide once after it (`scores = scores / (step + 1)` after the `for`),
or keep a true running mean (`mean += (x - mean) / (step + 1)`).

## When preflight stays silent

* The division sits under an `if` of the loop body (the last iteration, a `break` branch) or
  after the loop.
* The divided name is not summed in the same loop body, or is reset in it.
* The divisor is not the loop counter plus one (a batch size, a running mean's update).
"""
    bad_examples = examples("preflight.rules.code._pf179_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf179_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for loop in ctx.nodes(ast.For):
            index = _index_name(loop)
            if index is None:
                continue
            stmts = list(_body_statements(loop.body))
            summed = {_sums(st) for st, _ in stmts} - {None}
            if not summed:
                continue
            for st, guarded in stmts:
                name = _divides(st, index)
                if name is None or guarded or name not in summed:
                    continue
                resets = [s for s, _ in stmts if s is not st and isinstance(s, ast.Assign)
                          and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)]
                if resets:
                    continue
                yield ctx.finding(
                    self, st,
                    f"`{name}` is summed in this loop and divided by the iteration count (`{ast.unparse(st)}`) inside "
                    f"it, on every iteration: each later value is added to an average that is divided again, so after "
                    f"the loop `{name}` is neither the sum nor the mean (DeepSpeed-Chat's reward evaluation); divide "
                    "once after the loop")
