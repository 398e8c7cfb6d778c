"""PF531 optimizer-step-skips-closure: an overridden ``optimizer_step`` that does not run
``optimizer_closure`` on every call: ``training_step`` and ``backward`` are skipped."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _lightning_module(cls: ast.ClassDef) -> bool:
    return any(ast.unparse(b).rsplit(".", 1)[-1] == "LightningModule" for b in cls.bases)


def _manual(cls: ast.ClassDef) -> bool:
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and any(
                ast.unparse(t) in ("self.automatic_optimization", "automatic_optimization") for t in node.targets):
            return True
        if isinstance(node, ast.FunctionDef) and node.name == "automatic_optimization":
            return True
    return False


def _closure_param(fn: ast.FunctionDef) -> Optional[str]:
    args = fn.args
    if args.vararg is not None or args.kwarg is not None:
        return None  # the closure may travel in *args/**kwargs
    names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    # the name of pytorch-lightning 1.1 and later, where the closure runs training_step; the
    # ``second_order_closure`` of 0.x/1.0 was for LBFGS only (training_step ran before the hook)
    return "optimizer_closure" if "optimizer_closure" in names else None


def _refs(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _covers(stmts: list[ast.stmt], name: str) -> Optional[bool]:
    """True: every path through ``stmts`` references the closure; False: a path ends (falls off,
    returns or raises) without it."""
    for stmt in stmts:
        if isinstance(stmt, ast.If) and not _refs(stmt.test, name):
            body, orelse = _covers(stmt.body, name), _covers(stmt.orelse, name)
            if body and orelse:
                return True
            if (not body and _exits(stmt.body)) or (not orelse and _exits(stmt.orelse)):
                return False
            continue
        if isinstance(stmt, (ast.Return, ast.Raise)):
            return stmt.value is not None and _refs(stmt, name) if isinstance(stmt, ast.Return) else \
                _refs(stmt, name)
        if _refs(stmt, name):
            return True  # loops, with, try: read leniently
    return False


def _exits(stmts: list[ast.stmt]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], (ast.Return, ast.Raise))


def _step_call(fn: ast.FunctionDef) -> Optional[ast.Call]:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step":
            return node
    return None


@register
class OptimizerStepSkipsClosure(PlanRule):
    code = "PF531"
    name = "optimizer-step-skips-closure"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("An overridden `optimizer_step` does not run `optimizer_closure` on every call: "
               "`training_step` and `backward` are skipped for those batches")
    explanation = """
## What it finds

A `LightningModule` (automatic optimization) overrides `optimizer_step(self, epoch,
batch_idx, optimizer, optimizer_closure)` (pytorch-lightning 1.1 and later, the 1.x
signature with `optimizer_idx` included) and some path through it neither passes
`optimizer_closure` on (`optimizer.step(closure=optimizer_closure)`,
`super().optimizer_step(..., optimizer_closure)`) nor calls it: `optimizer.step()` without
the closure, or the step (with the closure) only under an `if` with no branch that runs
the closure otherwise.

## Why it matters

Under automatic optimization Lightning runs `training_step`, `zero_grad` and `backward`
inside that closure; the optimizer (through the precision plugin) calls it from
`step(closure=...)`. The hook's docstring (`lightning/pytorch/core/module.py`, 2.x):
"This closure must be executed as it includes the calls to `training_step()`,
`optimizer.zero_grad()`, and `backward()`". Without it the batch is never trained on:
nothing trains at all ("when I override optimizer_step it causes training_step to be
skipped"), or, with the step every other batch, half the batches are skipped instead of
accumulated.

## How to fix it

Call `optimizer.step(closure=optimizer_closure)`; on batches that must not step, still
run `optimizer_closure()` (it runs `training_step` + `backward` without a step), or use
`Trainer(accumulate_grad_batches=N)`.

## When preflight stays silent

* The module sets `automatic_optimization = False` (the hook is not Lightning's step then).
* Every path passes the closure on or calls it; the hook takes `*args`/`**kwargs`.
* The pytorch-lightning 0.x/1.0 signature (`second_order_closure`): there `training_step`
  and `backward` ran before the hook and the closure served LBFGS only.
"""
    bad_examples = examples("preflight.rules.plan._pf531_examples", "PF531_BAD")
    good_examples = examples("preflight.rules.plan._pf531_examples", "PF531_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if "optimizer_step" not in (text or ""):
                continue
            for cls in ast.walk(script.tree):
                if not isinstance(cls, ast.ClassDef) or not _lightning_module(cls) or _manual(cls):
                    continue
                for fn in cls.body:
                    if not isinstance(fn, ast.FunctionDef) or fn.name != "optimizer_step":
                        continue
                    name = _closure_param(fn)
                    if name is None or _covers(fn.body, name):
                        continue
                    use = next((n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name), None)
                    if use is None:
                        step = _step_call(fn)
                        node: ast.AST = step if step is not None else fn
                        message = (f"`optimizer_step` never runs `{name}`"
                                   + (f": `{ast.unparse(step)}` steps without it" if step is not None else "")
                                   + ". Under automatic optimization the closure is what runs `training_step`, "
                                   "`zero_grad` and `backward`, so no batch is trained on. Pass it: "
                                   f"`optimizer.step(closure={name})`")
                    else:
                        node = use
                        message = (f"`{name}` runs only on some calls of `optimizer_step` (line {use.lineno}): "
                                   "the closure runs `training_step` and `backward`, so on the other batches "
                                   "the batch is skipped rather than accumulated. Call "
                                   f"`{name}()` on the batches that do not step, or use "
                                   "`Trainer(accumulate_grad_batches=N)`")
                    yield pctx.code_finding(self, script, node, message)
