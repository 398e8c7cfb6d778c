"""PF526 hydra-override-of-missing-key: a launch override of a key the composed Hydra config lacks,
written without ``+``/``++``."""

from __future__ import annotations

import re
from typing import Iterable

from preflight.diagnostics import Category, Evidence, FileError, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_override_keys import closest, unknown_hydra_key

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

The same holds for Hydra's own settings: `hydra.ouput_subdir=null` (a misspelling of
`output_subdir`) names a key that Hydra's config (`HydraConf`, hydra/conf/__init__.py)
does not have. hydra-core 1.1 and later stop with "Could not override
'hydra.ouput_subdir' ... Key 'ouput_subdir' not in 'HydraConf'" (checked with 1.3.8);
1.0 accepted it silently and the setting did nothing (hydra issue 1457). Only the
nodes whose keys Hydra fixes are checked (`hydra.run`, `hydra.sweep`, `hydra.job`,
...); plugin nodes (`hydra.launcher`, `hydra.sweeper`, logging, callbacks) take any key.

## How to fix it

Write `+a.b=value` (add a key) or `++a.b=value` (add or override), or give the
config the key (`dropout: 0.0`, or `???` in the default option).

## When preflight stays silent

* The key exists in the composed config (or in Hydra's own config), or the override
  has `+`/`++` (a misspelled appended key is PF258's).
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
        yield from self._hydra_keys(pctx)
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

    def _hydra_keys(self, pctx: PlanContext) -> Iterable[Finding]:
        """Plain ``hydra.a.b=value`` overrides of a key Hydra's own config does not have (the
        composer leaves Hydra's settings out of the job's config, so they are checked here)."""
        from preflight.rules.plan._hydra_apps import hydra_main_apps

        project = pctx.project
        if not project.argv:
            return
        seen: set = set()
        for comp in hydra_main_apps(pctx):
            script = comp.app.script
            for tok in project.script_args(script):
                head, eq, _ = tok.partition("=")
                if not eq or not head.startswith("hydra.") or "$" in tok or head in seen:
                    continue
                unknown = unknown_hydra_key(head)
                if unknown is None:
                    continue
                seen.add(head)
                part, allowed = unknown
                near = closest(part, allowed)
                meant = f" (`{near}` was probably meant)" if near else ""
                message = (f"the launch overrides `{head}`, but Hydra's own config has no `{part}` there{meant}: "
                           f"hydra-core 1.1 and later stop with \"Could not override '{head}'\" before the app runs "
                           f"(1.0 accepted it and the setting did nothing). Spell the key as Hydra's config has it")
                evidence = [Evidence(line=comp.app.line or 1, path=script.source.display,
                                     message="@hydra.main composes Hydra's config with this override")]
                if project.launch_at is not None:
                    path, line = project.launch_at
                    yield pctx.location_finding(self, path, line, message, evidence=evidence)
                else:
                    yield pctx.location_finding(self, script.source.display, comp.app.line or 1, message,
                                                evidence=evidence)
