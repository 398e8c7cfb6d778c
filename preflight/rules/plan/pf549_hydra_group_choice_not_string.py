"""PF549 hydra-group-choice-not-string: a config-group override on the launch line whose options are
unquoted numbers (``db=0,1,2``), which Hydra parses as ints and rejects."""

from __future__ import annotations

import re
from typing import Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

_NUMBER = re.compile(r"^[+-]?\d+(\.\d*)?([eE][+-]?\d+)?$")
_KEY = re.compile(r"^(\+\+|\+|~)?([A-Za-z_][\w./-]*)(@[\w.]+)?$")


def _numeric_choices(value: str) -> Optional[list[str]]:
    """The options of a plain sweep or choice (``0,1,2`` / ``1``) when every one is an unquoted number."""
    parts = [p.strip() for p in value.split(",")]
    if not parts or not all(_NUMBER.match(p) for p in parts):
        return None
    return parts


def _parsed_as(choices: list[str]) -> str:
    kinds = sorted({"a float" if "." in c or "e" in c.lower() else "an int" for c in choices})
    return " or ".join(kinds)


@register
class HydraGroupChoiceNotString(PlanRule):
    code = "PF549"
    name = "hydra-group-choice-not-string"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A config-group override with unquoted numeric options (`group=0,1,2`): Hydra rejects it "
               "before any job starts")
    explanation = """
## What it finds

An override on the launch line of an `@hydra.main` app, `group=0,1,2` (also `+group=1`,
`group@pkg=1`), whose key is a config group of the app (a folder of its config
directory) and whose options are all unquoted numbers.

## Why it matters

Hydra's override grammar reads `0`, `1` and `2` as integers, and a config group can
only be chosen by name: the run (or the whole multirun) stops before the first job
with `ValueError: Config group override must be a string or a list. Got int`
(CausalTransformer issue 3: a README sweep over options named `0.yaml`, `1.yaml`,
`2.yaml`). The job script dies after the allocation was granted.

## How to fix it

Quote the options so that they stay strings: `"group='0','1','2'"` (the shell needs
the outer quotes), or give the option files names that are not numbers.

## When preflight stays silent

* The key is not a folder of the app's config directory (a plain value such as
  `exp.seed=10,101` may be numeric), or an option is quoted or not a plain number.
* The sweep uses a function (`range(...)`, `choice(...)`): not read.
"""
    bad_examples = examples("preflight.rules.plan._pf549_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf549_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        if not pctx.project.argv:
            return
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed) or comp.app.script is None or comp.app.config_dir is None:
                continue
            for tok in pctx.project.script_args(comp.app.script) or ():
                if tok.startswith("-") or "=" not in tok:
                    continue
                key, _, value = tok.partition("=")
                found = _KEY.match(key)
                choices = _numeric_choices(value)
                if found is None or choices is None:
                    continue
                group = found.group(2).strip("/")
                if not (comp.app.config_dir / group).is_dir():
                    continue
                fix = f"quote them: \"{key}={','.join(repr(c) for c in choices)}\""
                message = (f"`{tok}` chooses options of the config group `{group}` by unquoted numbers: Hydra parses {', '.join(choices)} as {_parsed_as(choices)} and stops before any "
                           "job starts (\"Config group override must be a string or a list\"); " + fix)
                if pctx.project.launch_at is not None:
                    path, line = pctx.project.launch_at
                    yield pctx.location_finding(self, path, line, message)
                elif comp.app.line is not None:
                    yield pctx.location_finding(self, comp.app.script.source.display, comp.app.line, message)
                return
