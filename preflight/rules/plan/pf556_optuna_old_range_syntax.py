"""PF556 optuna-old-range-syntax: a ``low:high`` range on the command line of an Optuna sweep, which the
sweeper reads as a fixed string."""

from __future__ import annotations

import re
from typing import Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_sweeps import group_choices, yaml_configs

_NUMBER = r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?"
_RANGE = re.compile(rf"^{_NUMBER}:{_NUMBER}$")


@register
class OptunaOldRangeSyntax(PlanRule):
    code = "PF556"
    name = "optuna-old-range-syntax"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "A `low:high` range on the command line of an Optuna sweep: the sweeper passes it on as a string"
    explanation = """
## What it finds

A `--multirun` launch of a Hydra app whose config selects the Optuna sweeper
(`hydra/sweeper: optuna` in a defaults list, or on the launch line) with an override
written in the pre-1.1 range syntax, `x=-5.0:5.0` or `y=1:10`.

## Why it matters

The Optuna sweeper reads the launch line with Hydra's override grammar: only
`interval(...)`, `range(...)`, `choice(...)` or comma lists are sweeps.
hydra_optuna_sweeper/_impl.py `create_optuna_distribution_from_override`: `if not
override.is_sweep_override(): return override.get_value_element_as_str()`, so `-5.0:5.0`
becomes a fixed parameter, the string "-5.0:5.0", in every trial: the search space is
empty and the objective fails on a string (optuna issue 1799: "AttributeError: 'str'
object has no attribute ...").

## How to fix it

`'x=interval(-5.0, 5.0)'` (a float range) and `'y=range(1, 10)'` (integers), quoted
for the shell.

## When preflight stays silent

* The sweep is not the Optuna sweeper, or the launch is not `--multirun`.
* The value is not two numbers around a colon (`time=10:30:00` strings, paths).
"""
    bad_examples = examples("preflight.rules.plan._pf555_examples", "PF556_BAD")
    good_examples = examples("preflight.rules.plan._pf555_examples", "PF556_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import find_apps
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        project = pctx.project
        argv = list(project.argv)
        if not argv or not any(tok == "-m" or (tok.startswith("--m") and "--multirun".startswith(tok))
                               for tok in argv):
            return
        optuna = any(tok.replace(" ", "").endswith("hydra/sweeper=optuna") for tok in argv) or any(
            isinstance(cfg.data, dict) and "optuna" in group_choices(cfg.data.get("defaults"), "hydra/sweeper")
            for cfg in yaml_configs(pctx))
        if not optuna:
            return
        for app in find_apps(project):
            script = app.script
            if script is None or app.how != "@hydra.main":
                continue
            ranges = [tok for tok in project.script_args(script)
                      if "=" in tok and not tok.startswith("-") and _RANGE.match(tok.split("=", 1)[1].strip("'\""))]
            if not ranges:
                continue
            key, value = ranges[0].split("=", 1)
            low, high = value.split(":", 1)
            kind = "interval" if "." in value or "e" in value.lower() else "range"
            message = (f"`{ranges[0]}` is the pre-1.1 range syntax, which the Optuna sweeper does not read: "
                       f"a value that is no sweep of the override grammar becomes a fixed parameter, here the "
                       f"string {value!r}, in every trial (the search space is empty and the objective gets a "
                       f"string). Write `'{key}={kind}({low}, {high})'`")
            if project.launch_at is not None:
                path, line = project.launch_at
                yield pctx.location_finding(self, path, line, message)
            else:
                yield pctx.location_finding(self, script.source.display, app.line or 1, message)
            break
