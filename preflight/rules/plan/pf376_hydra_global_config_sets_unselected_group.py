"""PF376 hydra-global-config-sets-unselected-group: an ``# @package _global_`` config the launch line
selects (an experiment) sets a few fields under the name of a config group that no defaults list
selects: Hydra composes only those fields, and the group's option (its other keys) is never loaded."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import launched_hydra_main_apps, read_hydra_config
from preflight.sources import read_text_limited

_MAX_FILES = 2000
_GLOBAL_HEADER = re.compile(r"^\s*#\s*@package\s+_global_\s*$", re.MULTILINE)


def _yaml_files(folder: Path) -> list[Path]:
    return list(folder.rglob("*.yaml"))[:_MAX_FILES] + list(folder.rglob("*.yml"))[:_MAX_FILES]


def _mentioned_groups(folder: Path, files: list[Path]) -> Optional[set[str]]:
    """Every group a defaults list of the directory names (``thk: default``, ``/thk: default``,
    ``override /thk: x``, ``thk@pkg: x``, relative groups joined to their file's group); None when a
    config with a defaults list cannot be read."""
    out: set[str] = set()
    for path in files:
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:
            return None
        if "defaults" not in text:
            continue
        cfg = read_hydra_config(path)
        if cfg is None:
            return None
        own = "/".join(path.relative_to(folder).parts[:-1])
        for entry in cfg.defaults if isinstance(cfg.defaults, list) else []:
            if isinstance(entry, str):
                continue
            if not isinstance(entry, dict) or len(entry) != 1:
                return None
            (key, _), = entry.items()
            words = str(key).split()
            if not words:
                continue
            group = words[-1].partition("@")[0]
            if group.startswith("/"):
                out.add(group.strip("/"))
            else:
                out.add(group)
                if own:
                    out.add(f"{own}/{group}")
    return out


def _line_of(path: Path, key: str) -> int:
    try:
        lines = read_text_limited(path, errors="replace").splitlines()
    except OSError:
        return 1
    for number, line in enumerate(lines, 1):
        if re.match(rf"{re.escape(key)}\s*:", line):
            return number
    return 1


@register
class HydraGlobalConfigSetsUnselectedGroup(PlanRule):
    code = "PF376"
    name = "hydra-global-config-sets-unselected-group"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("An `@package _global_` config the launch line selects sets a few fields of a config group that no "
               "defaults list selects: the group's option is never loaded, its other keys are missing")
    explanation = """
## What it finds

A `@hydra.main` app launched with `+experiment=custom` (any `group=option` whose file
starts with `# @package _global_`), where the option sets a mapping under a top-level
key that is the name of a config group of the directory (`thk: {units: centimeters}`
and a `conf/thk/` folder), while no defaults list of the directory names that group
and the launch line does not select it, and every option of the group has keys that the
mapping lacks (`grid_size`, `shape`).

## Why it matters

Setting fields under a group's name does not load the group: Hydra loads a group's
option only when a defaults list (or the command line) selects it. The composed
`cfg.thk` is just `{units: centimeters}`, and the code that reads `cfg.thk.grid_size`
fails, or a `_target_` is built without its arguments (hydra issue 2982, "Overriding
values of non-default config groups": "the node contains only the overridden field and
the group's other parameters are lost"; Hydra's docs, "Config groups": a group's config
is composed only when it is selected in a defaults list).

## How to fix it

Select the group in the experiment's own defaults list before overriding its field:

```yaml
# @package _global_
defaults:
  - /thk: default
thk:
  units: centimeters
```

## When preflight stays silent

* Some defaults list of the directory names the group (any option, `null`, `override`,
  a package), or the launch line selects it.
* The mapping carries every key of some option of the group (the whole node is given).
* The option is not `_global_`, or is not selected by the launch line; a config with a
  defaults list preflight cannot read.
"""
    bad_examples = examples("preflight.rules.plan._pf376_examples", "PF376_BAD")
    good_examples = examples("preflight.rules.plan._pf376_examples", "PF376_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        project = pctx.project
        for app in launched_hydra_main_apps(pctx):
            if app.config_dir is None:
                continue
            folder: Path = app.config_dir
            selected: dict[str, str] = {}
            for tok in project.script_args(app.script):
                head, eq, option = tok.partition("=")
                group = head.lstrip("+").strip("/")
                if eq and group and option and not any(c in head for c in ".@$~") and \
                        not any(c in option for c in "$,[]{}() "):
                    selected[group] = option
            chosen = [(g, o, folder / g / f"{o}.yaml") for g, o in selected.items()]
            chosen = [(g, o, p) for g, o, p in chosen if p.is_file()]
            if not chosen:
                continue
            files: Optional[list[Path]] = None
            mentioned: Optional[set[str]] = None
            for group, option, path in chosen:
                try:
                    text = read_text_limited(path, errors="replace")
                except OSError:
                    continue
                if not _GLOBAL_HEADER.search(text):
                    continue
                cfg = read_hydra_config(path)
                body = getattr(cfg, "body", None)
                if not isinstance(body, dict):
                    continue
                if files is None:
                    files = _yaml_files(folder)
                    mentioned = _mentioned_groups(folder, files)
                if mentioned is None:
                    break
                for key, node in body.items():
                    finding = self._unselected(pctx, app, folder, path, str(key), node, mentioned, selected,
                                               f"{group}={option}")
                    if finding is not None:
                        yield finding

    def _unselected(self, pctx: PlanContext, app: Any, folder: Path, path: Path, key: str, node: Any,
                    mentioned: set[str], selected: dict[str, str], chosen: str) -> Optional[Finding]:
        if not isinstance(node, dict) or not node or key in mentioned or key in selected or key == "defaults":
            return None
        group_dir = folder / key
        if not group_dir.is_dir():
            return None
        options = sorted(p for p in group_dir.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
        if not options:
            return None
        given = {str(k) for k in node}
        lost: Optional[set[str]] = None
        for option in options:
            cfg = read_hydra_config(option)
            body = getattr(cfg, "body", None)
            if not isinstance(body, dict):
                return None
            try:
                if "_global_" in read_text_limited(option, errors="replace"):
                    return None
            except OSError:
                return None
            missing = {str(k) for k in body} - given
            if not missing:
                return None  # this option's every key is given: the node may be meant whole
            lost = missing if lost is None else lost & missing
        if not lost:
            return None
        from preflight.adapters.hydra_compose import relative

        display = relative(path, Path(str(pctx.project.root)))
        first = options[0]
        names = ", ".join(f"`{k}`" for k in sorted(lost)[:4])
        message = (f"`{key}:` here sets {', '.join(f'`{k}`' for k in sorted(given)[:4])} of the config group "
                   f"`{key}`, but no defaults list selects that group (and `{chosen}` does not either): Hydra composes "
                   f"`cfg.{key}` from these fields alone, and {names} of its options (`{key}/{first.stem}`) are never "
                   f"loaded (hydra issue 2982). Select it in this file's defaults list (`- /{key}: {first.stem}`) "
                   "before overriding the field")
        evidence = [Evidence(line=1, path=relative(first, Path(str(pctx.project.root))),
                             message=f"an option of the group `{key}`, never selected"),
                    Evidence(line=app.line or 1, path=app.script.source.display,
                             message="@hydra.main composes the config with the launch line")]
        return pctx.location_finding(self, display, _line_of(path, key), message, evidence=evidence)
