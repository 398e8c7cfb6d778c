"""PF290 hydra-append-of-existing-key: a launch override ``+a.b=value`` of a key the composed Hydra config
already has."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Optional

from preflight.diagnostics import Category, Evidence, FileError, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

# the composer's message (hydra-core's own words)
_ALREADY = re.compile(r"Could not append to config\. An item is already at '([^']+)'")


def _override_line(pctx: PlanContext, key: str) -> Optional[tuple[str, int]]:
    """The launch script line that holds ``+key=`` (a continuation line of the launch command)."""
    at = pctx.project.launch_at
    if at is None:
        return None
    display, first = at
    from preflight.sources import read_text_limited

    path = Path(display) if Path(display).is_absolute() else Path(pctx.project.root) / display
    try:
        lines = read_text_limited(path, errors="replace").splitlines()
    except OSError:
        return at
    needle = re.compile(r"(^|[\s'\"])\+" + re.escape(key) + r"=")
    for number in range(max(first, 1), len(lines) + 1):
        if needle.search(lines[number - 1]):
            return display, number
        if not lines[number - 1].rstrip().endswith("\\"):
            break
    return at


@register
class HydraAppendOfExistingKey(PlanRule):
    code = "PF290"
    name = "hydra-append-of-existing-key"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "The launch appends a key with `+a.b=value` that the composed Hydra config already has"
    explanation = """
## What it finds

A command-line override `+a.b=value` of a `@hydra.main` app whose composed config
(primary config, defaults list, the launch's other overrides; under `--multirun` the
default option of each swept group) already has the key `a.b`.

## Why it matters

The prefixes mean different things: `a.b=v` overrides a key that must exist, `+a.b=v`
adds a key and "will raise an error if it was already present in the configuration",
`++a.b=v` adds or overrides (hydra issue 1547, the maintainer's summary). Hydra stops
before the app runs with `ConfigCompositionException: Could not append to config. An
item is already at 'a.b'`: under `--multirun` no job of the sweep starts.

## How to fix it

Drop the `+` (`a.b=value`) to override the existing key, or write `++a.b=value` when
the key may or may not exist.

## When preflight stays silent

* The key is absent from the composed config (`+` is right), or the override is
  written without a prefix or with `++` (an override of a missing key is PF526's).
* The config could not be composed for another reason (that is reported as an input
  error).
"""
    bad_examples = examples("preflight.rules.plan._pf290_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf290_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        seen: set[str] = set()
        for comp in compositions(pctx.project):
            if not isinstance(comp, FileError) or comp.line is None:
                continue
            found = _ALREADY.search(comp.message)
            if found is None or found.group(1) in seen:
                continue
            key = found.group(1)
            seen.add(key)
            message = (f"the launch appends `+{key}=...`, but the composed Hydra config of this app already has "
                       f"`{key}`: `+` only adds a key, so Hydra stops with \"Could not append to config. An item is "
                       f"already at '{key}'\" before the app runs (under --multirun, before any job starts). Write "
                       f"`{key}=...` to override it, or `++{key}=...` to add or override")
            where = _override_line(pctx, key)
            if where is None:
                yield pctx.location_finding(self, comp.path, comp.line, message)
                continue
            yield pctx.location_finding(
                self, where[0], where[1], message,
                evidence=[Evidence(line=comp.line, path=comp.path,
                                   message="@hydra.main composes the config with this override")])
