"""PF574 hydra-dotted-group-override: a nested config group chosen with the dotted value syntax
(``model.encoder=vit``), which replaces the composed node with a string."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _options(value: Any, text: str, sweep: bool) -> Optional[list[str]]:
    """The option names an override gives: one string, or the names of a plain sweep (``a.b=x,y``)."""
    if sweep:
        raw = text.partition("=")[2]
        if "(" in raw:
            return None  # range(...), choice(...): not read
        return [part.strip() for part in raw.split(",")]
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _has_option(folder: Path, name: str) -> bool:
    if not name or "/" in name or name.startswith("."):
        return False
    return any(os.path.isfile(folder / f"{name}{ext}") for ext in (".yaml", ".yml"))


@register
class HydraDottedGroupOverride(PlanRule):
    code = "PF574"
    name = "hydra-dotted-group-override"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("A nested config group is chosen with a dotted override (`model.encoder=vit`): Hydra sets the "
               "node to the string instead of loading the option")
    explanation = """
## What it finds

A launch-line override `a.b=name` of a `@hydra.main` app where `a/b` is a config
group of the app (a folder of its config directory, selected in the composed
defaults list at package `a.b`, typically from the defaults of the `a` option) and
`name` is one of that folder's option files (`a/b/name.yaml`). Sweeps
(`a.b=x,y`) are read option by option.

## Why it matters

In Hydra's override grammar a group is selected by its path with slashes
(`a/b=name`); the dotted key `a.b` is a config *value* override. Hydra composes
the default option of the group and then assigns the string `"name"` to the node
`a.b`: the option file is never loaded, `instantiate(cfg.a.b)` gets a string, and
any `${a.b.key}` interpolation fails with `node a.b is not a container and thus
cannot contain key` (MESH issue 1: `model.slot_attention=mesh` in the README; the
fix was `model/slot_attention=mesh`). The job fails after it was queued and
granted its GPUs.

## How to fix it

Select the option with the group path: `a/b=name` (`model/slot_attention=mesh`).

## When preflight stays silent

* The key is not a config group folder, or the value is not one of its options
  (`model.slot_attention.d_slot=32` changes a value inside the option).
* The group is not in the composed defaults list (then the dotted key is a plain
  value, or Hydra's "Could not override" error, PF526).
* Top-level groups (`model=image`): there the dotted and the group syntax are the same.
"""
    bad_examples = examples("preflight.rules.plan._pf574_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf574_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        if not pctx.project.argv:
            return
        try:
            from preflight.adapters.hydra import Composed, compositions
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        for comp in compositions(pctx.project):
            if not isinstance(comp, Composed) or comp.app.script is None:
                continue
            config_dir = comp.config_dir or comp.app.config_dir
            if config_dir is None:
                continue
            packages = {item.package for item in comp.composition.items}
            for override in comp.composition.overrides:
                key = override.key
                if override.prefix not in ("", "++") or "." not in key or "/" in key or "@" in key:
                    continue
                group = key.replace(".", "/")
                folder = config_dir / group
                names = _options(override.value, override.text, override.sweep)
                if names is None or key not in packages or not folder.is_dir():
                    continue
                if not all(_has_option(folder, n) for n in names):
                    continue
                fix = override.text.replace(key, group, 1)
                message = (f"`{override.text}` names an option of the nested config group `{group}` with the dotted "
                           f"(value) syntax: Hydra loads the group's default option and then replaces the node "
                           f"`{key}` with the string {names[0]!r}, so `{group}/{names[0]}.yaml` is never read and "
                           f"`${{{key}.…}}` interpolations fail (\"node {key} is not a container\"); write `{fix}`")
                if pctx.project.launch_at is not None:
                    path, line = pctx.project.launch_at
                    yield pctx.location_finding(self, path, line, message)
                elif comp.app.line is not None:
                    yield pctx.location_finding(self, comp.app.script.source.display, comp.app.line, message)
                return
