"""PF375 hydra-override-misses-group-package: ``group=option`` on the launch line where the primary
defaults list holds the group only under a package (``- optional overrides@_global_:``): since
hydra-core 1.2 Hydra stops with "Could not override 'group'. Did you mean to override group@pkg?"."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import launched_hydra_main_apps, read_hydra_config
from preflight.sources import read_text_limited

_MAX_FILES = 2000


def _entry_groups(defaults: Any) -> Iterable[tuple[str, Optional[str]]]:
    """(group, package or None) of each ``group: option`` / ``optional group@pkg: option`` /
    ``override group: option`` entry of a defaults list."""
    if not isinstance(defaults, list):
        return
    for entry in defaults:
        if not isinstance(entry, dict) or len(entry) != 1:
            continue
        (key, _), = entry.items()
        words = str(key).split()
        if not words:
            continue
        name = words[-1]
        group, at, package = name.partition("@")
        group = group.strip("/")
        if group:
            yield group, (package if at else None)


def _plain_elsewhere(folder: Path, group: str) -> bool:
    """Some config of the directory lists ``group`` without a package (the plain override may be used there)."""
    paths = list(folder.rglob("*.yaml"))[:_MAX_FILES] + list(folder.rglob("*.yml"))[:_MAX_FILES]
    for path in paths:
        try:
            if group not in read_text_limited(path, errors="replace"):
                continue
        except OSError:
            continue
        cfg = read_hydra_config(path)
        if cfg is None:
            return True  # unreadable: assume it may
        rel_group = "/".join(path.relative_to(folder).parts[:-1])
        for name, package in _entry_groups(cfg.defaults):
            if package is None and (name == group or (rel_group and f"{rel_group}/{name}" == group)):
                return True
    return False


@register
class HydraOverrideMissesGroupPackage(PlanRule):
    code = "PF375"
    name = "hydra-override-misses-group-package"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("The launch line overrides `group=option` but the defaults list holds the group only as "
               "`group@package`: Hydra 1.2+ stops with \"Could not override 'group'\"")
    explanation = """
## What it finds

A `@hydra.main` app whose primary defaults list names a group only with a package
(`- optional overrides@_global_:`, `- model@encoder: small`), launched with a plain
`overrides=best` that does not name the package.

## Why it matters

Hydra matches a command-line group override against the defaults list by its
override key, which for a relocated entry is `group@package`. Since hydra-core 1.2 an
override that matches no entry is an error: the job stops before anything runs with
"Could not override 'overrides'. Did you mean to override overrides@_global_? To append
to your default list use +overrides=best" (`hydra/_internal/defaults_list.py`,
`Overrides.ensure_overrides_used`; checked on hydra-core 1.3.8). On hydra-core 1.1 the
same line worked, so scripts written then break on upgrade (hydra issue 2628, "Cannot
override @_global_ package from CLI"). In a loop of runs (a sweep script) every run
fails the same way.

## How to fix it

Name the package on the command line: `overrides@_global_=best` (or
`model@encoder=large`).

## When preflight stays silent

* The project pins hydra-core below 1.2.
* The group is also listed without a package, in the primary or in any config of the
  directory (the plain override may address that entry).
* `+group=option` (an append), `~group`, keys with a dot, an `@`, or a `$`.
"""
    bad_examples = examples("preflight.rules.plan._pf375_examples", "PF375_BAD")
    good_examples = examples("preflight.rules.plan._pf375_examples", "PF375_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        for app in launched_hydra_main_apps(pctx):
            if app.config_dir is None or not app.config_name:
                continue
            args = [t for t in project.script_args(app.script) if "=" in t]
            if not args:
                continue
            name = app.config_name
            folder: Path = app.config_dir
            primary = folder / (name if name.endswith((".yaml", ".yml")) else name + ".yaml")
            if not primary.is_file():
                continue
            cfg = read_hydra_config(primary)
            if cfg is None:
                continue
            packaged: dict[str, str] = {}
            plain: set[str] = set()
            for group, package in _entry_groups(cfg.defaults):
                if package is None:
                    plain.add(group)
                else:
                    packaged.setdefault(group, package)
            if not packaged:
                continue
            version = pctx.version("hydra-core", app.script)
            if version is not None and version.how == "pinned" and not version.at_least(1, 2):
                continue
            for tok in args:
                head, _, option = tok.partition("=")
                if not head or head[0] in "+~" or any(c in head for c in ".@$ ") or not option:
                    continue
                group = head.strip("/")
                if group not in packaged or group in plain or _plain_elsewhere(folder, group):
                    continue
                full = f"{group}@{packaged[group]}"
                message = (f"`{tok}`: the defaults list holds `{group}` only as `{full}`, and since hydra-core 1.2 "
                           f"a command-line override must name the package: Hydra stops before the run with "
                           f"\"Could not override '{group}'. Did you mean to override {full}?\" (hydra issue 2628). "
                           f"Write `{full}={option}`")
                evidence = [Evidence(line=app.line or 1, path=app.script.source.display,
                                     message="@hydra.main composes the config with this command line")]
                if project.launch_at is not None:
                    path, line = project.launch_at
                    yield pctx.location_finding(self, path, line, message, evidence=evidence)
                else:
                    yield pctx.location_finding(self, app.script.source.display, app.line or 1, message,
                                                evidence=evidence)
