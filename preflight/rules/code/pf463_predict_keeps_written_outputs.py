"""PF463 predict-keeps-written-outputs: ``trainer.predict`` keeps every prediction in memory while a
``BasePredictionWriter`` callback already writes them."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last, last_name
from preflight.rules.base import Rule, examples

_TRAINERS = ("Trainer",)


def _writer_classes(ctx: FileContext) -> set[str]:
    """Classes of the file derived (directly, or through another of them) from ``BasePredictionWriter``."""
    out: set[str] = set()
    classes = ctx.nodes(ast.ClassDef)
    changed = True
    while changed:
        changed = False
        for cls in classes:
            if cls.name in out:
                continue
            if any(last_name(b) == "BasePredictionWriter" or last_name(b) in out for b in cls.bases):
                out.add(cls.name)
                changed = True
    return out


def _writer_in(node: ast.AST, fn: ast.AST, writers: set[str]) -> Optional[ast.Call]:
    """A call of a writer class inside ``node``, directly or through a name bound once in ``fn``."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and call_last(sub) in writers:
            return sub
        if isinstance(sub, ast.Name):
            bound = [a.value for a in ast.walk(fn) if isinstance(a, ast.Assign) and len(a.targets) == 1
                     and isinstance(a.targets[0], ast.Name) and a.targets[0].id == sub.id
                     and isinstance(a.value, ast.Call)]
            if len(bound) == 1 and call_last(bound[0]) in writers:
                return bound[0]
    return None


@register
class PredictKeepsWrittenOutputs(Rule):
    code = "PF463"
    needs_text = ("BasePredictionWriter",)
    name = "predict-keeps-written-outputs"
    severity = Severity.WARNING
    category = Category.MEMORY
    frameworks = ("lightning",)
    summary = ("`trainer.predict` keeps every prediction in memory while a `BasePredictionWriter` "
               "callback already writes them")
    explanation = """
## What it finds

`trainer.predict(...)` called as a statement (its result unused) without
`return_predictions=`, on a `Trainer` built in the same function with a callback whose
class derives from `BasePredictionWriter` (defined in the file).

## Why it matters

`return_predictions` defaults to True (except under spawn-based strategies): the predict
loop keeps the output of every `predict_step` until the epoch ends, so memory grows with
the number of batches. A prediction writer is used precisely because the outputs are
large (segmentation maps, embeddings of a whole corpus); kept as well, they exhaust host
or GPU memory long before the loop ends (ahcore PR 37: "Pytorch Lightning keeps track of
all its outputs through one epoch. That is why we observed the OOM error during the
predict loop"). Lightning's documentation of `BasePredictionWriter` passes
`return_predictions=False` for this reason.

## How to fix it

`trainer.predict(model, datamodule=dm, return_predictions=False)`.

## When preflight stays silent

* `return_predictions=` is given (either value), or the call passes `**kwargs`.
* The result of `predict` is used (assigned, returned, passed on): the caller wants it.
* No callback of the `Trainer` is a `BasePredictionWriter` subclass of the file.
* The function is a pytest test (`def test_...`): Lightning's own tests predict a few
  batches with a writer.
"""
    bad_examples = examples("preflight.rules.code._pf463_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf463_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        writers = _writer_classes(ctx)
        if not writers:
            return
        for stmt in ctx.nodes(ast.Expr):
            call = stmt.value
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "predict" and isinstance(call.func.value, ast.Name)):
                continue
            if any(k.arg in (None, "return_predictions") for k in call.keywords):
                continue
            fn = ctx.enclosing_function(call) or ctx.tree
            if getattr(fn, "name", "").startswith("test_"):
                continue  # a pytest test of a few batches (Lightning's own)
            name = call.func.value.id
            trainers = [a.value for a in ast.walk(fn) if isinstance(a, ast.Assign) and len(a.targets) == 1
                        and isinstance(a.targets[0], ast.Name) and a.targets[0].id == name
                        and isinstance(a.value, ast.Call) and call_last(a.value) in _TRAINERS]
            if len(trainers) != 1:
                continue
            callbacks = next((k.value for k in trainers[0].keywords if k.arg == "callbacks"), None)
            writer = _writer_in(callbacks, fn, writers) if callbacks is not None else None
            if writer is None:
                continue
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call.func)}(...)` leaves `return_predictions` at its default (True): Lightning keeps "
                f"the output of every `predict_step` in memory until the loop ends, although the "
                f"`{call_last(writer)}` callback already writes each one; memory grows with the number of batches "
                "until the job runs out of it. Pass `return_predictions=False`",
                evidence=[ctx.evidence(writer, f"`{call_last(writer)}` is a BasePredictionWriter")])
