"""PF391 scaler-helper-step-without-update: a GradScaler handed to a helper of the same file that calls
``scaler.step(optimizer)`` every iteration, while nothing ever calls ``update()`` on it."""

from __future__ import annotations

import ast
from typing import Iterable, Optional, Union

from preflight.analysis.context import FileContext
from preflight.analysis.optimizers import SCALER_CLASSES
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, kwarg, target_text
from preflight.rules.base import Rule, examples

Func = Union[ast.FunctionDef, ast.AsyncFunctionDef]
# methods of the scaler itself: calling them hands the scaler to nothing
_OWN = frozenset({"scale", "step", "unscale_", "update", "get_scale", "is_enabled", "state_dict",
                  "load_state_dict"})


def _params(fn: Func) -> list[str]:
    return [a.arg for a in fn.args.posonlyargs + fn.args.args]


class _Flow:
    """Where one scaler goes: the names it is bound to and the local helpers that receive it."""

    def __init__(self, ctx: FileContext, name: str, functions: dict[str, Func]) -> None:
        self.aliases = {name}
        self.params: set[str] = set()
        self.opaque = False
        changed = True
        while changed and not self.opaque:
            changed = False
            for call in ctx.nodes(ast.Call):
                changed |= self._hand(call, functions)
            for node in ctx.nodes(ast.Assign):
                if isinstance(node.value, ast.Name) and node.value.id in self.aliases:
                    text = target_text(node.targets[0]) if len(node.targets) == 1 else None
                    if text is None:
                        self.opaque = True
                    elif text not in self.aliases:
                        self.aliases.add(text)
                        changed = True

    def _hand(self, call: ast.Call, functions: dict[str, Func]) -> bool:
        func = call.func
        if isinstance(func, ast.Attribute) and target_text(func.value) in self.aliases and func.attr in _OWN:
            return False
        handed = [(i, a) for i, a in enumerate(call.args) if target_text(a) in self.aliases]
        handed_kw = [kw for kw in call.keywords if kw.value is not None and target_text(kw.value) in self.aliases]
        if not handed and not handed_kw:
            return False
        fn = functions.get(func.id) if isinstance(func, ast.Name) else None
        if fn is None:
            self.opaque = True
            return False
        params = _params(fn)
        new = [params[i] for i, _ in handed if i < len(params)] + [kw.arg for kw in handed_kw if kw.arg]
        if len(new) < len(handed) + len(handed_kw):
            self.opaque = True
            return False
        added = [p for p in new if p not in self.params]
        self.aliases.update(added)
        self.params.update(added)
        return bool(added)


def _per_iteration(ctx: FileContext, node: ast.AST, functions: dict[str, Func], depth: int = 0) -> bool:
    """``node`` runs inside a loop, or inside a helper called (within three calls) from one."""
    if ctx.enclosing_loop(node) is not None:
        return True
    fn = ctx.enclosing_function(node)
    if depth >= 3 or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or functions.get(fn.name) is not fn:
        return False
    return any(isinstance(c.func, ast.Name) and c.func.id == fn.name and _per_iteration(ctx, c, functions, depth + 1)
               for c in ctx.nodes(ast.Call))


def _scalers(ctx: FileContext) -> list[tuple[str, ast.Call]]:
    out = []
    for node in ctx.nodes(ast.Assign):
        if len(node.targets) != 1 or not isinstance(node.value, ast.Call):
            continue
        qual = next((q for c, q in calls(ctx) if c is node.value), "")
        if qual.rsplit(".", 1)[-1] not in SCALER_CLASSES or not qual.startswith("torch."):
            continue
        enabled = kwarg(node.value, "enabled")
        if enabled is not None and not (isinstance(enabled, ast.Constant) and enabled.value is True):
            continue
        name = target_text(node.targets[0])
        if name:
            out.append((name, node.value))
    return out


@register
class ScalerHelperStepWithoutUpdate(Rule):
    code = "PF391"
    name = "scaler-helper-step-without-update"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("pytorch",)
    needs_text = ("GradScaler",)
    summary = ("a GradScaler is handed to a helper of the same file that calls `scaler.step(optimizer)` every "
               "iteration, but nothing ever calls `scaler.update()`")
    explanation = """
## What it finds

A `torch.amp.GradScaler` (or `torch.cuda.amp.GradScaler`) created in the file is passed to a
function of the same file (directly or through further helpers) whose parameter calls
`.step(optimizer)` on it, that helper runs inside a loop (or is called from one), and no name the
scaler reaches ever calls `.update()`. PF106 covers the scaler stepped in the loop itself; this
rule follows it into the helpers PF106 leaves alone.

## Why it matters

`update()` closes each iteration of the scaler: it adjusts the scale and resets the per-optimizer
state. Without it the second `scaler.step(optimizer)` raises `RuntimeError: step() has already
been called since the last update()` (MS-AMP PR 45: the MNIST example's `step(scaler, optimizer)`
helper only called `scaler.step`), after data loading and warm-up have been paid for; where it does
not fail the loss scale never adapts.

## How to fix it

Call `scaler.update()` right after `scaler.step(optimizer)` in the helper.

## When preflight stays silent

* `update` is called on any name the scaler reaches, or the scaler is handed to a function
  preflight cannot see (another module, a method), stored in a container, or created with
  `enabled=` anything but `True`.
* The step is neither in a loop nor in a helper called (within three calls) from a loop.
"""
    bad_examples = examples("preflight.rules.code._pf391_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf391_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        scalers = _scalers(ctx)
        if not scalers:
            return
        functions: dict[str, Func] = {}
        for fn in ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            if not isinstance(ctx.parent(fn), ast.ClassDef):
                functions.setdefault(fn.name, fn)
        for name, created in scalers:
            flow = _Flow(ctx, name, functions)
            if flow.opaque or not flow.params:
                continue
            updates = [c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute)
                       and c.func.attr == "update" and target_text(c.func.value) in flow.aliases]
            if updates:
                continue
            step: Optional[ast.Call] = next(
                (c for c in ctx.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == "step"
                 and target_text(c.func.value) in flow.params and c.args and _per_iteration(ctx, c, functions)),
                None)
            if step is None:
                continue
            receiver = target_text(step.func.value) if isinstance(step.func, ast.Attribute) else name
            yield ctx.finding(
                self, step,
                f"`{ast.unparse(step)}` steps the GradScaler `{name}` (created line {created.lineno}) every "
                f"iteration, but `update()` is never called on it: the second step raises `RuntimeError: step() "
                f"has already been called since the last update()`, and the loss scale never adapts. Call "
                f"`{receiver}.update()` right after `{ast.unparse(step)}`",
                evidence=[ctx.evidence(created, f"`{name}` is a GradScaler handed to this helper")])
