"""PF383 hydra-plus-override-names-a-nested-group: ``+name=option`` on the launch line where ``name`` is no
config group but ``parent/name`` is one with that option: Hydra adds a plain string key and loads nothing."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import launched_hydra_main_apps
from preflight.sources import read_text_limited


def _stored(script: Any) -> list[tuple[str, str, int]]:
    """``cs.store(name=..., group=...)`` calls of a script with literal names: (group, name, line)."""
    out = []
    for call in ast.walk(script.tree):
        if not (isinstance(call, ast.Call) and call_last(call) == "store"):
            continue
        name, group = kwarg(call, "name"), kwarg(call, "group")
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            grp = group.value if isinstance(group, ast.Constant) and isinstance(group.value, str) else ""
            out.append((grp.strip("/"), name.value, call.lineno))
    return out


def _groups(app: Any) -> tuple[dict[str, set[str]], dict[str, int]]:
    """Config group -> its options (YAML files of the config directory, ConfigStore entries of the script),
    and the ConfigStore line of each stored group."""
    groups: dict[str, set[str]] = {}
    lines: dict[str, int] = {}
    folder: Optional[Path] = app.config_dir
    if folder is not None and folder.is_dir():
        for path in list(folder.rglob("*.yaml"))[:2000] + list(folder.rglob("*.yml"))[:2000]:
            rel = path.relative_to(folder)
            if len(rel.parts) > 1:
                groups.setdefault("/".join(rel.parts[:-1]), set()).add(path.stem)
    for group, name, line in _stored(app.script):
        if group:
            groups.setdefault(group, set()).add(name)
            lines.setdefault(group, line)
    return groups, lines


def _defaults_mention(app: Any, name: str) -> bool:
    """The primary config's defaults list has an entry keyed ``name`` (a group relative to the primary's own
    group, which a plain ``name=option`` may address), or the primary has a top-level key ``name`` (then
    Hydra refuses the ``+``: PF290's finding)."""
    folder, primary = app.config_dir, (app.config_name or "")
    if folder is None or not primary:
        return False
    path = folder / (primary if primary.endswith((".yaml", ".yml")) else primary + ".yaml")
    try:
        text = read_text_limited(path, errors="replace")
    except OSError:  # InputRefused too
        return False
    return any((line.strip().startswith("-") and line.strip().lstrip("-").strip().startswith(
        (f"{name}:", f"override {name}:", f"/{name}:"))) or line.startswith(f"{name}:") for line in text.splitlines())


@register
class HydraPlusOverrideNamesANestedGroup(PlanRule):
    code = "PF383"
    name = "hydra-plus-override-names-a-nested-group"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`+name=option` where `name` is no config group but `parent/name` is one with that option: Hydra "
               "adds a plain string key and the option is never loaded")
    explanation = """
## What it finds

A `+name=option` override on the launch line of a `@hydra.main` app, where `name` is not a
config group of the app (no `name/` folder in the config directory, no
`ConfigStore.store(group="name")` in the script) but a nested group `parent/name` is, and
has an option called `option` (`parent/name/option.yaml`, or `cs.store(name="option",
group="parent/name")`).

## Why it matters

Hydra resolves a group override from the root of the config search path. `+name=option`
with no group `name` is read as "add the key `name` with the string value `option`", so the
run starts with `name: option` in its config and none of the option's values: with
`config_name="train/config"` and a stored `train/overrides/small_lr`, `+overrides=small_lr`
leaves the learning rate and warmup at their defaults (hydra issue 2875).

## How to fix it

Address the group by its full path: `+parent/name=option`.

## When preflight stays silent

* `name` is a group of its own, or no nested group has the option.
* The primary config's defaults list has an entry keyed `name` (a group it addresses
  relatively), or the primary already has a key `name` (Hydra refuses the `+`: PF290), or
  the override has a dot, a slash, an `@` package or a `$`.
"""
    bad_examples = examples("preflight.rules.plan._pf383_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf383_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        for app in launched_hydra_main_apps(pctx):
            groups: Optional[dict[str, set[str]]] = None
            lines: dict[str, int] = {}
            for tok in project.script_args(app.script):
                head, eq, option = tok.partition("=")
                if not eq or not head.startswith("+") or head.startswith("++"):
                    continue
                name = head[1:]
                if not name or any(c in name for c in "./@$") or any(c in option for c in "$,[]()=/ "):
                    continue
                if groups is None:
                    groups, lines = _groups(app)
                if name in groups:
                    continue
                nested = sorted(g for g, opts in groups.items() if g.endswith("/" + name) and option in opts)
                if not nested or _defaults_mention(app, name):
                    continue
                full = nested[0]
                evidence = [Evidence(line=app.line or 1, path=app.script.source.display,
                                     message="@hydra.main composes the config with this command line")]
                if full in lines:
                    evidence.append(Evidence(line=lines[full], path=app.script.source.display,
                                             message=f"the group `{full}` is stored here"))
                message = (f"`{tok}`: `{name}` is no config group of this app, but `{full}` is, with an option "
                           f"`{option}`: Hydra reads the override as a new key `{name}: {option}` and loads nothing "
                           "from the option, so its values never reach the run (hydra issue 2875). Address the group "
                           f"by its full path: `+{full}={option}`")
                if project.launch_at is not None:
                    path, line = project.launch_at
                    yield pctx.location_finding(self, path, line, message, evidence=evidence)
                else:
                    yield pctx.location_finding(self, app.script.source.display, app.line or 1, message,
                                                evidence=evidence)
