"""PF526 hydra-override-of-missing-key: a launch override of a key the composed Hydra config lacks,
written without ``+``/``++``."""

from __future__ import annotations

import re
from typing import Iterable

from preflight.diagnostics import Category, FileError, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# Hydra's own message (and the composer's, which repeats it)
_COULD_NOT = re.compile(r"Could not override '([^']+)'\.\s*To append to your config use \+(\S+)")


@register
class HydraOverrideOfMissingKey(PlanRule):
    code = "PF526"
    name = "hydra-override-of-missing-key"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "The launch overrides a key that the composed Hydra config does not have, without `+`/`++`"
    explanation = """
## What it finds

A command-line override `a.b=value` of a `@hydra.main` app whose composed config
(primary config, defaults list, the launch's other overrides; under `--multirun`
the default option of each swept group) has no key `a.b`.

## Why it matters

Hydra's configs are in struct mode: an override may only change a key that
exists. The run stops before the app starts with `ConfigCompositionException:
Could not override 'a.b'. To append to your config use +a.b=value` (SkyRL PR 974:
`trainer.rope_scaling.rope_type=yarn` on an empty `rope_scaling: {}`). Under
`--multirun` the primary config is composed with the default option of a swept
group before any job starts, so an override that every swept option accepts still
fails when the default option lacks the key (hydra issue 2888).

## How to fix it

Write `+a.b=value` (add a key) or `++a.b=value` (add or override), or give the
config the key (`dropout: 0.0`, or `???` in the default option).

## When preflight stays silent

* The key exists in the composed config, or the override has `+`/`++`.
* The config could not be composed for another reason (that is reported as an
  input error).
"""
    bad_examples = examples("preflight.rules.plan._pf526_examples", "PF526_BAD")
    good_examples = examples("preflight.rules.plan._pf526_examples", "PF526_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, FileError) or comp.line is None:
                continue
            found = _COULD_NOT.search(comp.message)
            if found is None:
                continue
            key, text = found.group(1), found.group(2)
            yield pctx.location_finding(
                self, comp.path, comp.line,
                f"the launch overrides `{key}`, which the composed Hydra config of this app does not have: "
                f"Hydra stops with \"Could not override '{key}'\" before the app runs. Write `+{text}` (add the "
                f"key) or `++{text}` (add or override), or give the config the key")
