"""PF692 no-sync-gate-misses-step: hand-written DDP accumulation whose ``no_sync`` test and optimizer-step
test pick different micro-batches (``no_sync`` unless ``i % k == 0``, step when ``(i + 1) % k == 0``): the
gradients of the micro-batch that steps are never all-reduced, so every rank steps with its own."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_Loop = Union[ast.For, ast.While, ast.AsyncFor]


@dataclass(frozen=True)
class _Gate:
    """``(counter + offset) % window == 0`` (``zero``) or ``!= 0`` (not ``zero``)."""

    counter: str
    offset: int
    window: str
    zero: bool

    def negated(self) -> _Gate:
        return _Gate(self.counter, self.offset, self.window, not self.zero)

    def text(self) -> str:
        base = self.counter if not self.offset else f"({self.counter} {'+' if self.offset > 0 else '-'} " \
                                                    f"{abs(self.offset)})"
        return f"{base} % {self.window} {'==' if self.zero else '!='} 0"


def _counter(expr: ast.expr) -> Optional[tuple[str, int]]:
    """``i`` -> (i, 0); ``i + 1`` / ``1 + i`` / ``i - 1`` -> (i, +-1)."""
    if isinstance(expr, (ast.Name, ast.Attribute)):
        return ast.unparse(expr), 0
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        left, right = expr.left, expr.right
        if isinstance(right, ast.Constant) and type(right.value) is int and isinstance(left, (ast.Name, ast.Attribute)):
            return ast.unparse(left), right.value if isinstance(expr.op, ast.Add) else -right.value
        if isinstance(expr.op, ast.Add) and isinstance(left, ast.Constant) and type(left.value) is int and \
                isinstance(right, (ast.Name, ast.Attribute)):
            return ast.unparse(right), left.value
    return None


def _modulo(expr: ast.expr) -> Optional[tuple[str, int, str]]:
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
        found = _counter(expr.left)
        if found is not None and isinstance(expr.right, (ast.Name, ast.Attribute, ast.Constant)):
            return found[0], found[1], ast.unparse(expr.right)
    return None


def _gate(test: ast.expr, bound: dict[str, ast.expr], depth: int = 0) -> Optional[_Gate]:
    """The modulo gate a test reads, or None when it reads anything else."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _gate(test.operand, bound, depth)
        return inner.negated() if inner is not None else None
    if isinstance(test, ast.Name) and test.id in bound and depth < 2:
        return _gate(bound[test.id], bound, depth + 1)
    mod = _modulo(test)
    if mod is not None:
        return _Gate(mod[0], mod[1], mod[2], zero=False)  # truthy remainder
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant) and \
            test.comparators[0].value == 0 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
        mod = _modulo(test.left)
        if mod is not None:
            return _Gate(mod[0], mod[1], mod[2], zero=isinstance(test.ops[0], ast.Eq))
    return None


def _is_no_sync(expr: ast.expr) -> bool:
    return (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "no_sync") or \
        (isinstance(expr, ast.Attribute) and expr.attr == "no_sync")


def _is_null_context(expr: ast.expr) -> bool:
    text = ast.unparse(expr)
    return "nullcontext" in text or "ExitStack" in text or text in ("None", "contextlib.suppress()")


def _optimizer_step(node: ast.AST) -> bool:
    """``optimizer.step()`` / ``opt.step()`` / ``scaler.step(optimizer)``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step"):
        return False
    return "opt" in ast.unparse(node).lower()


def _no_sync_gate(loop: _Loop, bound: dict[str, ast.expr]) -> Optional[tuple[_Gate, ast.AST]]:
    """(the gate under which the loop synchronises, the node that decides) from ``if T: with no_sync ...
    else: ...`` or ``X.no_sync() if T else nullcontext()``; None when there is none or it is not a modulo test."""
    for node in ast.walk(loop):
        if isinstance(node, ast.If):
            in_body = any(isinstance(s, (ast.With, ast.AsyncWith)) and any(_is_no_sync(i.context_expr)
                                                                            for i in s.items) for s in node.body)
            in_else = any(isinstance(s, (ast.With, ast.AsyncWith)) and any(_is_no_sync(i.context_expr)
                                                                            for i in s.items) for s in node.orelse)
            if in_body == in_else:
                continue
            gate = _gate(node.test, bound)
            if gate is not None:
                return (gate.negated() if in_body else gate), node
        elif isinstance(node, ast.IfExp):
            if _is_no_sync(node.body) and _is_null_context(node.orelse):
                gate = _gate(node.test, bound)
                if gate is not None:
                    return gate.negated(), node
            elif _is_null_context(node.body) and _is_no_sync(node.orelse):
                gate = _gate(node.test, bound)
                if gate is not None:
                    return gate, node
    return None


def _step_gate(loop: _Loop, bound: dict[str, ast.expr]) -> Optional[tuple[_Gate, ast.If]]:
    for node in ast.walk(loop):
        if isinstance(node, ast.If) and any(_optimizer_step(n) for s in node.body for n in ast.walk(s)) and \
                not any(_optimizer_step(n) for s in node.orelse for n in ast.walk(s)):
            gate = _gate(node.test, bound)
            if gate is not None:
                return gate, node
    return None


def _bound_names(func: Optional[ast.AST]) -> dict[str, ast.expr]:
    """Names assigned once in the function (``is_last = (i + 1) % accum == 0``)."""
    bound: dict[str, ast.expr] = {}
    seen: set[str] = set()
    if func is None:
        return bound
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in seen:
                bound.pop(name, None)
            else:
                seen.add(name)
                bound[name] = node.value
    return bound


@register
class NoSyncGateMissesStep(Rule):
    code = "PF692"
    name = "no-sync-gate-misses-step"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch", "accelerate")
    needs_text = ("no_sync",)
    summary = ("The micro-batch that synchronises gradients under `no_sync` accumulation is not the one the "
               "optimizer steps on: each rank steps with its own, unreduced gradients")
    explanation = """
## What it finds

A batch loop that accumulates gradients by hand under DDP, entering `model.no_sync()` on
some micro-batches by one modulo test (`if i % accum != 0: with model.no_sync(): ...`, or
`model.no_sync() if ... else nullcontext()`), and stepping the optimizer under another
modulo test of the same counter and window that selects a different micro-batch
(`if (i + 1) % accum == 0: optimizer.step()`), or the opposite micro-batches.

## Why it matters

DDP all-reduces the gradients only in the backward of a micro-batch run outside
`no_sync`: that backward averages the gradients accumulated so far across the ranks. When
it is not the micro-batch that steps, the gradients of the later micro-batches are added
on each rank alone and the optimizer steps with rank-local gradients. The replicas then
drift apart with no error, and what is saved from rank 0 is one rank's model.
FunASR PR 3472: `batch_idx % accum_grad` synchronised the first micro-batch and suppressed
synchronisation on the one that steps (a two-rank reproduction got 4.0 and 7.0 for the
same gradient); `(batch_idx + 1) % accum_grad`, the step's test, fixed it.

## How to fix it

Compute one flag and use it for both decisions:

```python
is_step = (i + 1) % accum == 0
with (contextlib.nullcontext() if is_step else model.no_sync()):
    loss = model(x).loss / accum
    loss.backward()
if is_step:
    optimizer.step()
    optimizer.zero_grad()
```

## When preflight stays silent

* Either test is not a plain modulo test of a counter (`i`, `i + 1`, `self.step`), or the
  two tests read different counters or windows.
* The loop has no `no_sync` branch or no gated optimizer step.
"""
    bad_examples = examples("preflight.rules.code._pf692_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf692_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        seen: set[int] = set()
        for loop in ctx.nodes(ast.For, ast.While, ast.AsyncFor):
            bound = _bound_names(ctx.enclosing_function(loop) or ctx.tree)
            sync = _no_sync_gate(loop, bound)
            step = _step_gate(loop, bound)
            if sync is None or step is None:
                continue
            sync_gate, decider = sync
            step_gate, step_if = step
            if sync_gate.counter != step_gate.counter or sync_gate.window != step_gate.window:
                continue
            same = (sync_gate.offset == step_gate.offset and sync_gate.zero == step_gate.zero)
            if same or id(decider) in seen:
                continue
            seen.add(id(decider))
            yield ctx.finding(
                self, decider,
                f"gradients are synchronised (outside `no_sync`) when `{sync_gate.text()}`, but the optimizer "
                f"steps when `{step_gate.text()}`: the micro-batch that steps is not the one whose backward "
                "all-reduces, so every rank steps with its own gradients and the replicas drift apart. Use the "
                "step's test for `no_sync` too",
                evidence=[ctx.evidence(step_if, "the optimizer step's test")])
