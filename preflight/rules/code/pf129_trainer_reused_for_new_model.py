"""PF129 trainer-reused-for-new-model: one Lightning Trainer fits a second, new model; its fit loop already
reached ``max_epochs``, so the second ``fit`` returns at once and the new model stays untrained."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import dotted_text, kwarg, position, qualify
from preflight.rules.base import Rule, examples

_ROOTS = ("lightning.", "pytorch_lightning.")


@register
class TrainerReusedForNewModel(Rule):
    code = "PF129"
    name = "trainer-reused-for-new-model"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    needs_text = ("fit",)
    summary = "One Lightning Trainer fits a second, new model: its loop already reached max_epochs, so the new model is never trained"
    explanation = """
## What it finds

One `Trainer` object whose `fit` is called for a second model: `trainer.fit(model)` and later
`trainer.fit(model2)` in the same function or script (or `model` bound to a new object in
between), or `trainer.fit(model)` in a loop that builds a new model on every pass while the
Trainer is built once, outside the loop.

## Why it matters

The Trainer keeps its loop progress (epochs and steps done) between calls. The second `fit`
finds `max_epochs` (or `max_steps`) already reached and returns at once ("`Trainer.fit`
stopped: `max_epochs=5` reached."), so the second model keeps its initial weights, and the
`test`/`validate` that follow report an untrained model (Lightning-AI/pytorch-lightning#12789:
"Reusing a Trainer on different model instances only fits the first model ... the second one
goes completely untrained", closed as intended behaviour: a Trainer is built per run).

## How to fix it

Build a new `Trainer(...)` for each model (inside the loop).

## When preflight stays silent

* The same model object is fitted again (training continued on purpose), or the Trainer's
  loop settings are changed in between (`trainer.fit_loop.max_epochs = ...`).
* The Trainer name is bound again before the second `fit`, or the Trainer is built inside
  the loop.
* The calls are in a test function or class (`test_*`, `Test*`): tests fit models that fail on
  purpose or check a warning, not training.
"""
    bad_examples = examples("preflight.rules.code._pf129_examples", "PF129_BAD")
    good_examples = examples("preflight.rules.code._pf129_examples", "PF129_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        trainers: dict[str, list[ast.Assign]] = {}
        for node in ctx.nodes(ast.Assign):
            if isinstance(node.value, ast.Call):
                qual = qualify(ctx, node.value.func)
                if qual.startswith(_ROOTS) and qual.rsplit(".", 1)[-1] == "Trainer":
                    for tgt in node.targets:
                        text = dotted_text(tgt)
                        if text:
                            trainers.setdefault(text, []).append(node)
        if not trainers:
            return
        assigns = ctx.nodes(ast.Assign)
        fits: dict[tuple[int, str], list[tuple[ast.Call, str]]] = {}
        for call in ctx.nodes(ast.Call):
            f = call.func
            if not (isinstance(f, ast.Attribute) and f.attr == "fit"):
                continue
            owner = dotted_text(f.value)
            model = dotted_text(call.args[0] if call.args else kwarg(call, "model"))
            in_test = any(getattr(a, "name", "").lower().startswith("test") for a in ctx.ancestors(call)
                          if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
            if owner in trainers and model and not in_test:
                fits.setdefault((id(ctx.enclosing_function(call)), owner), []).append((call, model))
        for (scope, owner), calls in fits.items():
            calls.sort(key=lambda c: position(c[0]))
            reported = False
            for (first, m1), (second, m2) in zip(calls, calls[1:]):
                if reported:
                    break
                between = [a for a in assigns if position(first) < position(a) < position(second)
                           and id(ctx.enclosing_function(a)) == scope]
                if self._touched(between, owner):
                    continue
                rebound = any(dotted_text(t) == m2 for a in between for t in a.targets)
                if m1 != m2 or rebound:
                    reported = True
                    yield self._finding(ctx, second, owner, m2, first)
            if reported:
                continue
            for call, model in calls:
                loop = next((a for a in ctx.ancestors(call) if isinstance(a, (ast.For, ast.While))), None)
                if loop is None:
                    continue
                inside = {id(n) for n in ast.walk(loop)}
                built_inside = any(id(a) in inside for a in assigns if any(dotted_text(t) == model for t in a.targets))
                trainer_inside = any(id(a) in inside for a in trainers[owner]) or self._touched(
                    [a for a in assigns if id(a) in inside], owner)
                if built_inside and not trainer_inside and any(
                        id(a) not in inside and id(ctx.enclosing_function(a)) == scope for a in trainers[owner]):
                    yield self._finding(ctx, call, owner, model, None)
                    break

    @staticmethod
    def _touched(assigns: list[ast.Assign], owner: str) -> bool:
        """The trainer is built again or its state changed (``trainer = Trainer(...)``, ``trainer.fit_loop.x = ...``)."""
        for a in assigns:
            for t in a.targets:
                text = dotted_text(t) or ""
                if text == owner or text.startswith(owner + "."):
                    return True
        return False

    def _finding(self, ctx: FileContext, call: ast.Call, owner: str, model: str,
                 first: Optional[ast.Call]) -> Finding:
        where = (f"after it already fitted another model (line {first.lineno})" if first is not None
                 else "on every pass of this loop, with a new model each time, but it is built once outside the loop")
        return ctx.finding(
            self, call,
            f"`{owner}.fit({model})` reuses one Trainer {where}: the Trainer keeps its loop progress, so this fit "
            f"finds max_epochs already reached and returns at once, and `{model}` stays untrained. Build a new "
            f"Trainer for each model")
