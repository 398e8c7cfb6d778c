"""PF1230 unscaled-step-skipped-without-update: after ``scaler.unscale_(optimizer)`` a branch skips the
rest of the iteration (``continue``, or ``return`` from a step function) without ``scaler.update()``."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import grad_steps
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SAFE = "safe"


def _scaler_call(node: ast.AST, scaler: str, attrs: tuple[str, ...]) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in attrs \
        and ast.unparse(node.func.value) == scaler


def _resets(stmt: ast.stmt, scaler: str) -> bool:
    """The statement calls ``scaler.update()`` (which resets the per-optimizer unscale state), or hands
    the scaler to something preflight cannot see (a helper may update it)."""
    for node in ast.walk(stmt):
        if _scaler_call(node, scaler, ("update",)):
            return True
        if isinstance(node, ast.Call) and not _scaler_call(node, scaler, ("step", "unscale_", "scale", "get_scale")) \
                and any(ast.unparse(a) == scaler for a in [*node.args, *(k.value for k in node.keywords)]):
            return True
    return False


Exit = Union[ast.Continue, ast.Return]


def _scan(stmts: list[ast.stmt], scaler: str, want: type) -> Union[str, Exit, None]:
    """Walk ``stmts`` in order: the first exit of kind ``want`` reached before any ``scaler.update()``,
    ``_SAFE`` when every path updates first, None when the block falls through without either."""
    for stmt in stmts:
        if isinstance(stmt, want):
            return stmt  # type: ignore[return-value]
        if isinstance(stmt, ast.If):
            branches = [stmt.body, stmt.orelse]
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            branches = [stmt.body]
        elif isinstance(stmt, ast.Try):
            branches = [stmt.body + stmt.orelse + stmt.finalbody]
        elif isinstance(stmt, _LOOPS + _FUNCS + (ast.ClassDef,)):
            if _resets(stmt, scaler):
                return _SAFE
            continue  # a continue of an inner loop, a nested def: not this iteration's exit
        else:
            if _resets(stmt, scaler):
                return _SAFE
            continue
        outcomes = [_scan(b, scaler, want) for b in branches]
        for out in outcomes:
            if isinstance(out, (ast.Continue, ast.Return)):
                return out
        if all(o == _SAFE for o in outcomes):
            return _SAFE
        if isinstance(stmt, ast.If) and any(o == _SAFE for o in outcomes):
            return _SAFE  # the path that updates and the one that does not: undecided, stay silent
    return None


def _skip_after(ctx: FileContext, call: ast.Call, scaler: str) -> Optional[Exit]:
    """The exit reached after the ``unscale_`` call before ``scaler.update()``: a ``continue`` of the
    loop that holds the call, or a ``return`` of the (loop-free) step function that holds it."""
    stmt = ctx.enclosing(call, ast.stmt)
    if stmt is None:
        return None
    owner = next((a for a in ctx.ancestors(stmt) if isinstance(a, _LOOPS + _FUNCS)), None)
    if owner is None:
        return None
    want: type = ast.Continue if isinstance(owner, _LOOPS) else ast.Return
    node: ast.AST = stmt
    while node is not owner:
        parent = ctx.parent(node)
        if parent is None:
            return None
        body = next((b for b in (getattr(parent, f, None) for f in ("body", "orelse", "finalbody"))
                     if isinstance(b, list) and node in b), None)
        if body is not None:
            out = _scan(body[body.index(node) + 1:], scaler, want)
            if out == _SAFE:
                return None
            if isinstance(out, (ast.Continue, ast.Return)):
                return out
        node = parent
    return None


@register
class UnscaledStepSkippedWithoutUpdate(Rule):
    code = "PF1230"
    name = "unscaled-step-skipped-without-update"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    summary = ("After `scaler.unscale_(optimizer)` a branch skips the step (`continue`, or `return` from the "
               "step function) without `scaler.update()`: the next iteration's `unscale_` raises")
    frameworks = ("pytorch",)
    needs_text = ("unscale_",)
    explanation = """
## What it finds

A `GradScaler` whose gradients are unscaled with `scaler.unscale_(optimizer)` (to clip or to
measure the gradient norm), followed by a branch that skips the rest of the iteration (a
`continue` in the training loop, or a `return` from a per-step function: "grad norm too large,
skipping optimizer step") before any `scaler.update()` on that path.

## Why it matters

`unscale_` marks the optimizer as unscaled in the scaler's per-optimizer state; only
`scaler.update()` resets that state. When the iteration is skipped without it, the next
iteration's `scaler.unscale_(optimizer)` raises `RuntimeError: unscale_() has already been
called on this optimizer since the last update()`: the run dies the first time the skip branch
is taken, often hours in, on the first gradient spike. (Haian-Jin/LVSM pull request 19,
"resolve GradScaler RuntimeError when skipping optimizer step".)

## How to fix it

Call `scaler.update()` in the skip branch before `continue`/`return` (it lowers the scale when
the gradients were not finite), or structure the loop so `update()` runs on every iteration.

## When preflight stays silent

* `scaler.update()` is called on the skip path before the exit, or the scaler is handed to a
  helper preflight cannot see on that path.
* The scaler is created with `enabled=False`, or the receiver is not a known `GradScaler`.
* The exit belongs to an inner loop, or is a `return` out of the training loop itself (training
  ends: no later `unscale_`).
* One branch of an enclosing `if` updates and the other does not reach an exit (undecided).
"""
    bad_examples = examples("preflight.rules.code._pf1230_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf1230_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        steps = grad_steps(ctx)
        if not steps.scalers:
            return
        for call in ctx.nodes(ast.Call):
            if not (isinstance(call.func, ast.Attribute) and call.func.attr == "unscale_"):
                continue
            scaler = ast.unparse(call.func.value)
            if scaler not in steps.scalers or scaler in steps.disabled_scalers:
                continue
            if not any(_scaler_call(n, scaler, ("update",)) for n in ctx.nodes(ast.Call)):
                continue  # never updated anywhere: PF106's finding, not a skipped branch
            found = _skip_after(ctx, call, scaler)
            if found is None:
                continue
            exit_node = found
            word = "continue" if isinstance(exit_node, ast.Continue) else "return"
            yield ctx.finding(
                self, exit_node,
                f"this `{word}` skips the iteration after `{ast.unparse(call)}` (line {call.lineno}) without "
                f"`{scaler}.update()`: the scaler keeps the optimizer marked as unscaled, so the next iteration's "
                f"`{scaler}.unscale_(...)` raises `RuntimeError: unscale_() has already been called on this "
                f"optimizer since the last update()` the first time this branch is taken. Call `{scaler}.update()` "
                f"before the `{word}`",
                evidence=[ctx.evidence(call, "gradients unscaled here"),
                          ctx.evidence(steps.scalers[scaler], f"`{scaler}` is a GradScaler")])
