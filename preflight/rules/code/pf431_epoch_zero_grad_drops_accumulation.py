"""PF431 epoch-zero-grad-drops-accumulation: ``zero_grad`` at the top of each epoch while accumulation
carries over epochs."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _zero_grad(stmt: ast.stmt) -> Optional[str]:
    """``opt`` for a statement ``opt.zero_grad(...)``."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
            and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "zero_grad":
        return ast.unparse(stmt.value.func.value)
    return None


def _steps(node: ast.AST, opt: str) -> bool:
    """``opt.step()`` or ``scaler.step(opt)`` inside ``node``."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "step" \
                and (ast.unparse(n.func.value) == opt or (n.args and ast.unparse(n.args[0]) == opt)):
            return True
    return False


def _assigned(nodes: Iterable[ast.AST]) -> set[str]:
    out: set[str] = set()
    for node in nodes:
        for n in ast.walk(node):
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    if isinstance(t, ast.Name):
                        out.add(t.id)
    return out


def _carried(fn_body: list[ast.stmt], epoch: ast.stmt, batch: ast.AST, opt: str) -> Optional[tuple[ast.If, str]]:
    """The ``if`` of the batch loop that steps ``opt`` on a counter kept across epochs: its test reads a
    name set before the epoch loop and re-set only inside that ``if`` (``last_opt_step = ni``)."""
    before = _assigned(s for s in fn_body if s.lineno < epoch.lineno)
    for node in ast.walk(batch):
        if not (isinstance(node, ast.If) and _steps(node, opt)):
            continue
        read = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
        inside = set(ast.walk(node))
        elsewhere = _assigned(n for n in ast.walk(epoch) if isinstance(n, ast.stmt) and n not in inside
                              and not isinstance(n, (*_LOOPS, ast.If, ast.With, ast.Try)))
        for name in sorted(read & before & _assigned(node.body) - elsewhere):
            return node, name
    return None


@register
class EpochZeroGradDropsAccumulation(Rule):
    code = "PF431"
    needs_text = ("zero_grad",)
    name = "epoch-zero-grad-drops-accumulation"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    summary = "`zero_grad()` at the start of every epoch drops gradients that accumulation carries across epochs"
    explanation = """
## What it finds

An epoch loop whose body calls `optimizer.zero_grad()` before the batch loop,
while the batch loop steps the optimizer only every N batches on a counter that
is kept across epochs (`if ni - last_opt_step >= accumulate: ...; last_opt_step = ni`,
with `last_opt_step` set before the epoch loop).

## Why it matters

The counter says the accumulation window continues into the next epoch, but the
`zero_grad()` at the top of the epoch throws away the gradients of the batches
since the last step: every epoch loses up to N-1 batches of gradient, and the
first step of the next epoch averages fewer batches than its scaling assumes
(ultralytics PR 11217 moved the `zero_grad` out of the epoch loop).

## How to fix it

Call `optimizer.zero_grad()` once before the epoch loop (and after each step),
or step on the leftover gradients at the end of the epoch.

## When preflight stays silent

* The step condition restarts every epoch (`(i + 1) % accum == 0` on the batch
  index): the window ends with the epoch.
* `zero_grad()` before the epoch loop, or only right after the step.
"""
    bad_examples = examples("preflight.rules.code._pf431_examples", "PF431_BAD")
    good_examples = examples("preflight.rules.code._pf431_examples", "PF431_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            for epoch in fn.body:
                if not isinstance(epoch, _LOOPS):
                    continue
                for i, stmt in enumerate(epoch.body):
                    opt = _zero_grad(stmt)
                    if opt is None:
                        continue
                    for batch in epoch.body[i + 1:]:
                        if not (isinstance(batch, _LOOPS) and _steps(batch, opt)):
                            continue
                        found = _carried(fn.body, epoch, batch, opt)
                        if found is None:
                            continue
                        cond, name = found
                        yield ctx.finding(
                            self, stmt,
                            f"`{opt}.zero_grad()` runs at the start of every epoch, but the optimizer only steps "
                            f"when `{ast.unparse(cond.test)}`, on `{name}` kept across epochs: the gradients "
                            "accumulated since the last step of the previous epoch are thrown away. Call "
                            "`zero_grad()` once before the epoch loop",
                            evidence=[ctx.evidence(cond, "the step waits for the accumulation window here")])
                        break
