"""PF442 freeze-undone-by-later-loop: parameters frozen by a loop, then every one re-enabled by a later loop."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_PARAM_ITERS = ("parameters", "named_parameters")


def _param_loop(loop: ast.For) -> Optional[tuple[str, str]]:
    """(model text, parameter variable) of ``for [name,] p in model.[named_]parameters():``."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in _PARAM_ITERS):
        return None
    target = loop.target
    if isinstance(target, ast.Tuple) and len(target.elts) == 2:
        target = target.elts[1]
    if not isinstance(target, ast.Name):
        return None
    return ast.unparse(it.func.value), target.id


def _sets_grad(stmt: ast.stmt, var: str) -> Optional[bool]:
    """True/False when ``stmt`` is ``var.requires_grad = <bool>`` or ``var.requires_grad_(<bool>)``."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        t = stmt.targets[0]
        if isinstance(t, ast.Attribute) and t.attr == "requires_grad" and isinstance(t.value, ast.Name) \
                and t.value.id == var and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, bool):
            return stmt.value.value
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        if isinstance(call.func, ast.Attribute) and call.func.attr == "requires_grad_" \
                and isinstance(call.func.value, ast.Name) and call.func.value.id == var:
            if not call.args and not call.keywords:
                return True
            arg = call.args[0] if call.args else call.keywords[0].value
            if isinstance(arg, ast.Constant) and isinstance(arg.value, bool):
                return arg.value
    return None


def _freezes(loop: ast.For, var: str) -> bool:
    """Some statement of the loop (at any depth, under a name test) sets False."""
    return any(isinstance(n, ast.stmt) and _sets_grad(n, var) is False for n in ast.walk(loop))


def _freezes_all(loop: ast.For) -> bool:
    """The loop's own body (no test around it) sets False on every parameter it walks: the whole model
    is frozen for a while (a GAN's discriminator during the generator's step), not some of its layers."""
    found = _param_loop(loop)
    return found is not None and any(_sets_grad(stmt, found[1]) is False for stmt in loop.body)


def _unfreezes_all(loop: ast.For, var: str) -> Optional[ast.stmt]:
    """A statement of the loop's own body (no test around it) that sets True, with no False after it."""
    hit = None
    for stmt in loop.body:
        said = _sets_grad(stmt, var)
        if said is True:
            hit = stmt
        elif said is False or (hit is not None and any(isinstance(n, ast.stmt) and _sets_grad(n, var) is False
                                                        for n in ast.walk(stmt))):
            return None
    return hit


@register
class FreezeUndoneByLaterLoop(Rule):
    code = "PF442"
    needs_text = ("requires_grad",)
    name = "freeze-undone-by-later-loop"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "lightning", "accelerate", "fabric")
    summary = "A later loop sets `requires_grad = True` on every parameter, undoing the freeze above it"
    explanation = """
## What it finds

In one block of a function: a loop over `model.named_parameters()` (or `parameters()`)
that sets `requires_grad = False` on some parameters, followed by another loop over the
same model's (or an enclosing model's) parameters whose body sets `requires_grad = True` (or `requires_grad_()`)
on every parameter, without a test.

## Why it matters

The second loop re-enables the gradients the first one switched off: the "frozen"
layers train with the rest, and nothing says so. yolov5 did this for months: the loop
that sorts parameters into optimizer groups began with `v.requires_grad = True`
(yolov5 issue 1213: "all parameters have been set as requires_grad=True, which
overwrite the previous settings").

## How to fix it

Drop the unconditional `requires_grad = True` from the later loop, or test the frozen
names there too (`v.requires_grad = not any(x in k for x in freeze)`).

## When preflight stays silent

* The later loop tests before setting `True` (a schedule that unfreezes some layers),
  sets `False` again after it, or walks another module (`model.head.parameters()`).
* The loops are in different blocks (an unfreeze under `if epoch == unfreeze_at:`).
* The first loop froze every parameter of the same model without a test, and the later
  one re-enables exactly those: a temporary freeze (a GAN freezes its discriminator for
  the generator's step and unfreezes it for its own), not a per-layer freeze undone.
"""
    bad_examples = examples("preflight.rules.code._pf442_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf442_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            for block in _blocks(fn):
                frozen: dict[str, ast.For] = {}
                for stmt in block:
                    if not isinstance(stmt, ast.For):
                        continue
                    loop = _param_loop(stmt)
                    if loop is None:
                        continue
                    model, var = loop
                    covered = next((m for m in frozen if m == model or m.startswith(model + ".")), None)
                    if covered is not None and not (covered == model and _freezes_all(frozen[covered])):
                        undo = _unfreezes_all(stmt, var)
                        if undo is not None:
                            yield ctx.finding(
                                self, undo,
                                f"this loop sets `requires_grad = True` on every parameter of `{model}`, after the "
                                f"loop at line {frozen[covered].lineno} froze some of them: the freeze is undone and "
                                "the frozen layers train. Drop the unconditional True, or test the frozen names "
                                "here too",
                                evidence=[ctx.evidence(frozen[covered], "parameters are frozen here")])
                            del frozen[covered]
                            continue
                    if _freezes(stmt, var) and not any(_sets_grad(s, var) is True for s in stmt.body):
                        frozen[model] = stmt


def _blocks(fn: ast.AST) -> Iterable[list[ast.stmt]]:
    """Every statement list of the function, not entering nested functions or classes."""
    stack = [fn]
    while stack:
        node = stack.pop()
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                yield stmts
                stack.extend(s for s in stmts if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                    ast.ClassDef)))
        for handler in getattr(node, "handlers", []) or []:
            stack.append(handler)
