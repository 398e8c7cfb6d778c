"""PF655 warmup-built-before-lr-scheduler: a ``pytorch_warmup`` warmup built before the LR scheduler
of the same optimizer, so the scheduler records the dampened rate as its base rate."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import target_text
from preflight.rules.base import Rule, examples
from preflight.rules.code._schedulers import scheduler_optimizer

# pytorch_warmup's warmup classes (BaseWarmup subclasses): their constructors dampen the optimizer's lr
_WARMUPS = frozenset(("LinearWarmup", "ExponentialWarmup", "UntunedLinearWarmup", "UntunedExponentialWarmup",
                      "RAdamWarmup"))


def _warmup_optimizer(call: ast.Call, module_names: frozenset[str]) -> Optional[str]:
    """``warmup.LinearWarmup(opt, ...)`` (the module imported from ``pytorch_warmup``) -> ``opt``."""
    func = call.func
    if isinstance(func, ast.Attribute):
        if func.attr not in _WARMUPS or target_text(func.value) not in module_names:
            return None
    elif not (isinstance(func, ast.Name) and func.id in _WARMUPS and "" in module_names):
        return None
    arg: Optional[ast.expr] = call.args[0] if call.args else None
    for kw in call.keywords:
        if kw.arg == "optimizer":
            arg = kw.value
    return target_text(arg) if arg is not None else None


def _module_names(ctx: FileContext) -> frozenset[str]:
    """Names bound to the ``pytorch_warmup`` module; ``""`` when its classes are imported by name."""
    names = set()
    for node in ctx.unordered(ast.Import):
        for alias in node.names:
            if alias.name == "pytorch_warmup":
                names.add(alias.asname or alias.name)
    for imported in ctx.unordered(ast.ImportFrom):
        if imported.module == "pytorch_warmup" and any(a.name in _WARMUPS for a in imported.names):
            names.add("")
    return frozenset(names)


def _built(stmt: ast.stmt) -> Optional[ast.Call]:
    """``x = Call(...)`` -> the call."""
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, ast.Call):
        return stmt.value
    return None


@register
class WarmupBuiltBeforeLrScheduler(Rule):
    code = "PF655"
    name = "warmup-built-before-lr-scheduler"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("A pytorch_warmup warmup is built before the LR scheduler of the same optimizer: the scheduler's "
               "base rate is the dampened one, so the run trains at a fraction of the configured rate")
    frameworks = ("pytorch",)
    needs_text = ("pytorch_warmup",)
    explanation = """
## What it finds

In a file that imports `pytorch_warmup`, a warmup object (`warmup.LinearWarmup(optimizer, ...)`,
`ExponentialWarmup`, `UntunedLinearWarmup`, `UntunedExponentialWarmup`, `RAdamWarmup`) built by a
statement that comes, in the same block, before the statement that builds a learning-rate scheduler
on the same optimizer (`CosineAnnealingLR(optimizer, ...)`, `get_linear_schedule_with_warmup(optimizer, ...)`).

## Why it matters

`BaseWarmup.__init__` dampens the optimizer's learning rate in place (for step 1 of a linear
warmup, `lr * 1 / warmup_period`). A PyTorch scheduler built afterwards records the current rate of
each parameter group as its base rate, so every value of its schedule is scaled down by the first
warmup factor: after the warmup the run trains at about `lr / warmup_period` (1/2000 of the
configured rate for `warmup_period=2000`). Nothing fails; the loss just decreases very slowly.
The maintainer's answer in Tony-Y/pytorch_warmup issue 26: "The initial LR must be dampened inside
the init function. Do not init the scheduler after the warmup." The project's README and examples
build the LR scheduler first (as in pytorch_warmup issue 14's code).

## How to fix it

Build the LR scheduler first, then the warmup:
`lr_scheduler = CosineAnnealingLR(optimizer, T_max=n)` then
`warmup_scheduler = warmup.LinearWarmup(optimizer, warmup_period=2000)`.

## When preflight stays silent

* The LR scheduler is built first (the documented order).
* The scheduler built after the warmup belongs to another optimizer.
* The two are built in different blocks or functions (preflight cannot order them).
"""
    bad_examples = examples("preflight.rules.code._pf655_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf655_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        modules = _module_names(ctx)
        if not modules:
            return
        seen: set[int] = set()
        for node in ctx.unordered(ast.Assign) + ctx.unordered(ast.AnnAssign):
            parent = ctx.parent(node)
            if parent is None or id(parent) in seen:
                continue
            seen.add(id(parent))
            for field in ("body", "orelse", "finalbody"):
                block = getattr(parent, field, None)
                if isinstance(block, list) and node in block:
                    yield from self._check_block(ctx, block, modules)

    def _check_block(self, ctx: FileContext, block: list[ast.stmt],
                     modules: frozenset[str]) -> Iterable[Finding]:
        warmups: dict[str, ast.Call] = {}
        for stmt in block:
            call = _built(stmt)
            if call is None:
                continue
            opt = _warmup_optimizer(call, modules)
            if opt is not None:
                warmups.setdefault(opt, call)
                continue
            opt = scheduler_optimizer(call)
            if opt is None or opt not in warmups:
                continue
            warm = warmups[opt]
            message = (
                f"This LR scheduler is built on `{opt}` after the pytorch_warmup warmup (line {warm.lineno}), whose "
                f"constructor has already dampened `{opt}`'s learning rate in place: the scheduler records the "
                f"dampened rate as its base rate, so after the warmup the run trains at a fraction of the "
                f"configured rate (pytorch_warmup issue 26: \"Do not init the scheduler after the warmup\"). "
                f"Build the LR scheduler first, then the warmup")
            evidence = [ctx.evidence(warm, f"the warmup that dampens `{opt}`'s rate is built here")]
            yield ctx.finding(self, call, message, evidence=evidence)
