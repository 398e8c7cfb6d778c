"""PF588 optuna-task-returns-nothing: the config selects Hydra's Optuna sweeper while the
``@hydra.main`` task function returns no value (the trial objective)."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_sweeps import selects_optuna


def _returns_value(fn: ast.AST) -> bool:
    """A ``return <value>`` (not ``return``/``return None``) in ``fn``'s own body."""
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _hydra_main(fn: ast.AST) -> bool:
    return isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        isinstance(d, ast.Call) and (ast.unparse(d.func).endswith("hydra.main") or ast.unparse(d.func) == "main")
        for d in fn.decorator_list)


def _discarded_result(tree: ast.AST, fn: ast.AST) -> Optional[ast.AST]:
    """The last statement of ``fn`` that calls a function of the file which returns a value and
    throws the value away (``run_experiment(cfg)``): where the objective was lost."""
    returning = {f.name for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and f is not fn and _returns_value(f)}
    found = None
    for stmt in ast.walk(fn):
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(
                stmt.value.func, ast.Name) and stmt.value.func.id in returning:
            found = stmt
    return found


@register
class OptunaTaskReturnsNothing(PlanRule):
    code = "PF588"
    name = "optuna-task-returns-nothing"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "The config selects the Optuna sweeper, but the `@hydra.main` task function returns no objective value"
    explanation = """
## What it finds

A Hydra app whose composed config selects the Optuna sweeper (`override hydra/sweeper:
optuna` in a defaults list) while its `@hydra.main` function never returns a value.

## Why it matters

The Optuna sweeper runs each trial through the task function and reports its return
value to the study: `values = [float(ret.return_value)]`, then `study.tell(...)`
(hydra_plugins/hydra_optuna_sweeper/_impl.py). `None` is not float-castable ("Return
value must be float-castable. Got 'None'."): the trial fails, or the study records
nothing to optimise (Stoix PR 49, "return evaluation performance in hydra entrypoint").
Each trial's training runs to its end before that shows.

## How to fix it

Return the metric to optimise from the entry point: `return run_experiment(cfg)`
(a float, or a sequence of floats for a multi-objective study).

## When preflight stays silent

* The function returns a value somewhere (`return score`; whether every path does is not
  checked), or no config of the app selects the Optuna sweeper (the basic sweeper and
  plain runs ignore the return value).
"""
    bad_examples = examples("preflight.rules.plan._pf588_examples", "PF588_BAD")
    good_examples = examples("preflight.rules.plan._pf588_examples", "PF588_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        seen: set[int] = set()
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed):
                continue
            script = comp.app.script
            if script is None or id(script) in seen:
                continue
            files: list[Any] = list(comp.files.values())
            chosen = next((f for f in files if isinstance(f.data, dict) and selects_optuna(f.data.get("defaults"))),
                          None)
            if chosen is None:
                continue
            seen.add(id(script))
            for fn in ast.walk(script.tree):
                if not _hydra_main(fn) or _returns_value(fn):
                    continue
                at = _discarded_result(script.tree, fn) or fn
                yield pctx.code_finding(
                    self, script, at,
                    f"`{fn.name}` is the task function of a Hydra app whose config selects the Optuna sweeper "  # type: ignore[attr-defined]
                    f"({chosen.path}), but it returns nothing: the sweeper reports the task's return value to the "
                    "study as the trial objective, so the sweep has no value to optimise. Return the metric "
                    "(`return run_experiment(cfg)`)",
                    evidence=[pctx.config_evidence(chosen, ("defaults",), "the Optuna sweeper is selected here")])
