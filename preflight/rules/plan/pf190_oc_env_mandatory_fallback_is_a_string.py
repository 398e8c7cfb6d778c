"""PF190 oc-env-mandatory-fallback-is-a-string: a config value ``${oc.env:VAR,???}`` is the string "???"
when VAR is not set; the fallback does not make the value mandatory."""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_tree import config_leaves
from preflight.rules.plan._yaml_job_files import yaml_files

# `${oc.env:VAR,???}` (also the legacy `env` resolver, and a quoted `'???'`)
_MISSING_FALLBACK = re.compile(
    r"\$\{\s*(?:oc\.)?env\s*:\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*(['\"]?)\?\?\?\2\s*\}")


def _fallback_values(data: Any) -> Iterator[tuple[tuple[str, ...], str, re.Match[str]]]:
    """(key path, value, match) of every string value (or string item of a list value) of a loaded
    config holding a `???` env fallback, outside the top-level defaults list (where Hydra does treat
    `???` as mandatory)."""
    for path, value in config_leaves(data, ()):
        if not path or path[0] == "defaults":
            continue
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, str):
                found = _MISSING_FALLBACK.search(item)
                if found is not None:
                    yield path, item, found
                    break


@register
class OcEnvMandatoryFallbackIsAString(PlanRule):
    code = "PF190"
    name = "oc-env-mandatory-fallback-is-a-string"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A config value `${oc.env:VAR,???}` becomes the string \"???\" when VAR is not set; the "
               "fallback does not make it mandatory")
    explanation = """
## What it finds

A value in a YAML config of a Hydra/OmegaConf job written `${oc.env:VAR,???}` (or
`${oc.env:VAR,'???'}`, or the legacy `${env:VAR,???}`), alone or inside a longer string
(`${oc.env:DATA,???}/train`), meant as "VAR, and fail if it is not set".

## Why it matters

`???` marks a mandatory value only when it is the node's whole value. Inside an interpolation
it is an ordinary resolver argument: OmegaConf's `oc.env` resolver returns `str(default)`
when the variable is unset (omegaconf/resolvers/oc/__init__.py:35-36 at v2.1.0 and v2.3.0),
and the missing-value check runs before the interpolation is resolved, on the
`${...}` text (`_resolve_with_default`, omegaconf/basecontainer.py:93-105 at v2.3.0), so the
app silently receives the three characters `???`. Hydra issue 2469: in the defaults list the
same fallback raises MissingMandatoryValue, as a value it "interprets ??? as a string". A
data root then points at a folder named `???`, an API key is sent as `???`, and the job fails
late (or not at all) instead of at composition.

## How to fix it

Leave the fallback out (`${oc.env:VAR}` raises "Environment variable 'VAR' not found" at
composition when VAR is unset), give a real default, or write `key: ???` and set it from the
command line (`key=$VAR`).

## When preflight stays silent

* The `???` fallback is in the defaults list (Hydra treats it as mandatory there).
* The fallback is anything other than `???`, or the line is a comment.
"""
    bad_examples = examples("preflight.rules.plan._pf190_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf190_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for _text, cfg in yaml_files(pctx, _MISSING_FALLBACK):
            for path, _value, found in _fallback_values(cfg.data):
                var = found.group(1)
                yield pctx.config_finding(self, cfg, path, (
                    f"`{'.'.join(path)}` is `{found.group(0)}`: inside an interpolation `???` is not the "
                    f"mandatory marker, OmegaConf's env resolver returns the fallback as a string, so when "
                    f"{var} is not set the job silently gets the string \"???\" (Hydra issue 2469) instead "
                    f"of failing at composition. Write `${{oc.env:{var}}}` (raises when {var} is unset) or "
                    "give a real default"))
