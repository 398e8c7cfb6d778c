"""PF679 second-fit-after-max-steps: ``trainer.fit(model, ...)`` called again on a Trainer built with
``max_steps``: its global step already equals ``max_steps``, so the second fit trains nothing."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import dotted_text, kwarg, position, qualify
from preflight.rules.base import Rule, examples

_ROOTS = ("lightning.", "pytorch_lightning.")


def _step_budget(call: ast.Call) -> Optional[ast.expr]:
    """``max_steps=`` of a ``Trainer(...)`` call, unless it is the ``-1``/``None`` default."""
    value = kwarg(call, "max_steps")
    if value is None:
        return None
    if isinstance(value, ast.Constant) and (value.value is None or not isinstance(value.value, int)
                                            or value.value <= 0):
        return None
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
        return None
    return value


def _model(call: ast.Call) -> Optional[str]:
    return dotted_text(call.args[0] if call.args else kwarg(call, "model"))


@register
class SecondFitAfterMaxSteps(Rule):
    code = "PF679"
    name = "second-fit-after-max-steps"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    needs_text = ("max_steps",)
    summary = ("`trainer.fit` called again with the same model on a Trainer built with `max_steps`: the global "
               "step already reached `max_steps`, so the second fit returns without training")
    explanation = """
## What it finds

A Lightning `Trainer(max_steps=N)` whose `fit` is called a second time for the same model
(a second training stage, another datamodule): two `trainer.fit(model, ...)` calls in one
function or script with nothing between them that builds the Trainer again or changes its
loop (`trainer.fit_loop.max_steps = ...`), or one `trainer.fit(model, ...)` inside a `for`
loop while the Trainer and the model are built once, before it.

## Why it matters

The Trainer keeps its progress between `fit` calls. With `max_steps` the stopping test is
`global_step >= max_steps`, and the first fit left the global step at `max_steps`, so the
second fit stops before its first batch ("`Trainer.fit` stopped: `max_steps=2000` reached")
and the model keeps the first stage's weights; the checkpoint saved afterwards is the stage-1
model (Lightning-AI/pytorch-lightning#11425: "with `max_steps` only the first `fit` call will
do any training"; with `max_epochs` each call trains again, which is what misleads).

## How to fix it

Build a new `Trainer(...)` for the second stage, or raise the budget before it
(`trainer.fit_loop.max_steps += 2000`).

## When preflight stays silent

* The Trainer has no `max_steps` (or `max_steps=-1`/`None`).
* The Trainer is built again, or its loop changed (`trainer.fit_loop...`, `trainer.max_steps`),
  between the calls, or built inside the loop.
* The second call resumes from a checkpoint (`ckpt_path=`): that restores another step count.
* Another model is fitted (PF129 reports that), or the calls are in a test function.
"""
    url = "https://github.com/Lightning-AI/pytorch-lightning/issues/11425"
    bad_examples = examples("preflight.rules.code._pf679_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf679_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        trainers: dict[str, list[tuple[ast.Assign, ast.expr]]] = {}
        for node in ctx.nodes(ast.Assign):
            if isinstance(node.value, ast.Call):
                qual = qualify(ctx, node.value.func)
                if qual.startswith(_ROOTS) and qual.rsplit(".", 1)[-1] == "Trainer":
                    budget = _step_budget(node.value)
                    for tgt in node.targets:
                        text = dotted_text(tgt)
                        if text and budget is not None:
                            trainers.setdefault(text, []).append((node, budget))
        if not trainers:
            return
        assigns = [a for a in ctx.nodes(ast.Assign, ast.AugAssign)]
        fits: dict[tuple[int, str], list[ast.Call]] = {}
        for call in ctx.nodes(ast.Call):
            f = call.func
            if not (isinstance(f, ast.Attribute) and f.attr == "fit"):
                continue
            owner = dotted_text(f.value)
            in_test = any(getattr(a, "name", "").lower().startswith("test") for a in ctx.ancestors(call)
                          if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
            if owner in trainers and _model(call) and not in_test:
                fits.setdefault((id(ctx.enclosing_function(call)), owner), []).append(call)
        for (scope, owner), calls in fits.items():
            calls.sort(key=position)
            built = [(a, b) for a, b in trainers[owner] if id(ctx.enclosing_function(a)) == scope]
            if not built:
                continue
            reported = False
            for first, second in zip(calls, calls[1:]):
                if _model(first) != _model(second) or kwarg(second, "ckpt_path") is not None:
                    continue
                origin = [(a, b) for a, b in built if position(a) < position(first)]
                if not origin:
                    continue
                between = [a for a in assigns if position(first) < position(a) < position(second)
                           and id(ctx.enclosing_function(a)) == scope]
                if self._touched(between, owner, _model(second) or ""):
                    continue
                reported = True
                yield self._finding(ctx, second, owner, origin[-1], first)
                break
            if reported:
                continue
            for call in calls:
                loop = next((a for a in ctx.ancestors(call) if isinstance(a, (ast.For, ast.AsyncFor))), None)
                if loop is None or kwarg(call, "ckpt_path") is not None:
                    continue
                inside = {id(n) for n in ast.walk(loop)}
                loop_assigns = [a for a in assigns if id(a) in inside]
                if self._touched(loop_assigns, owner, _model(call) or ""):
                    continue
                origin = [(a, b) for a, b in built if position(a) < position(loop)]
                if origin:
                    yield self._finding(ctx, call, owner, origin[-1], None)
                    break

    @staticmethod
    def _touched(assigns: list, owner: str, model: str) -> bool:
        """The Trainer or the model is built again, or the Trainer's state changed."""
        for a in assigns:
            for t in (a.targets if isinstance(a, ast.Assign) else [a.target]):
                for sub in ast.walk(t):
                    text = dotted_text(sub) or ""
                    if text in (owner, model) or text.startswith(owner + "."):
                        return True
        return False

    def _finding(self, ctx: FileContext, call: ast.Call, owner: str, origin: tuple[ast.Assign, ast.expr],
                 first: Optional[ast.Call]) -> Finding:
        built, budget = origin
        where = (f"again after the fit on line {first.lineno}" if first is not None
                 else "on every pass of this loop while the Trainer is built once, before it")
        return ctx.finding(
            self, call,
            f"`{owner}.fit(...)` is called {where} on a Trainer built with `max_steps={ast.unparse(budget)}` "
            f"(line {built.lineno}): its global step already reached max_steps, so this fit stops before its first "
            "batch and the model keeps the earlier weights. Build a new Trainer for this stage, or raise "
            f"`{owner}.fit_loop.max_steps` first",
            evidence=[Evidence(line=built.lineno, column=built.col_offset,
                               message=f"Trainer built with max_steps={ast.unparse(budget)}")])
