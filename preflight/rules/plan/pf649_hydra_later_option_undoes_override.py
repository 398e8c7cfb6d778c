"""PF649 hydra-later-option-undoes-override: two options chosen on the launch line both ``override`` one
group, and the later one in the defaults list only re-selects the group's default: the earlier option's
choice is silently undone."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.loaders import load_config_file
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples


def _name(value: Any) -> Optional[str]:
    if not isinstance(value, str) or not value.strip():
        return None
    value = value.strip()
    return value[:-5] if value.endswith(".yaml") else value[:-4] if value.endswith(".yml") else value


def _entries(data: Any) -> list[tuple[int, str, Optional[str]]]:
    """(index, key, option) of each ``- key: option`` entry of a config's defaults list."""
    defaults = data.get("defaults") if isinstance(data, dict) else None
    if not isinstance(defaults, list):
        return []
    out = []
    for index, entry in enumerate(defaults):
        if isinstance(entry, dict) and len(entry) == 1:
            (key, value), = entry.items()
            out.append((index, str(key).strip(), _name(value)))
    return out


def _overrides(data: Any) -> dict[str, tuple[int, Optional[str]]]:
    """Group -> (index, option) of the ``override /group: option`` entries of an option's defaults list."""
    out = {}
    for index, key, option in _entries(data):
        if key.startswith("override "):
            group = key[len("override "):].strip().lstrip("/")
            if group and "@" not in group:
                out[group] = (index, option)
    return out


@register
class HydraLaterOptionUndoesOverride(PlanRule):
    code = "PF649"
    name = "hydra-later-option-undoes-override"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("two options chosen on the launch line both `override` one group and the later one re-selects the "
               "group's default: the earlier option's choice is silently undone")
    explanation = """
## What it finds

An `@hydra.main` app launched with two group choices (`experiment=bert_mnli mode=debug`)
whose option files are global configs with their own defaults lists, where both say
`override /G: ...` for the same group G, and the option that comes **later** in the primary
config's defaults list re-selects G's default option (the one the primary config already
chose, `override /trainer: default.yaml`) while the earlier one chooses another
(`override /trainer: debug.yaml`).

## Why it matters

Hydra walks the defaults tree and the last `override` of a group in depth-first order wins
(`hydra/_internal/defaults_list.py`, `Overrides.add_override`: "the first override registered
for a key is the last one in depth first order and first-wins keeps it"). The later option's
override changes nothing on its own (the group already had that option), so its only effect
is to cancel the earlier option's choice: the "debug" run silently uses the full trainer,
loggers and callbacks (lightning-hydra-template issue 245, "mode=debug is not overriding the
defaults list when running alongside an experiment config"; fixed there by listing
`experiment` before `mode`/`debug`).

## How to fix it

List the group whose overrides must win (a debug mode) after the other in the primary
config's defaults list, or drop the no-op `override /G: <default>` from the other option,
or choose G on the launch line (`trainer=debug`), which wins over both.

## When preflight stays silent

* Only one of the options overrides G, or the later one chooses something other than G's
  default (two real choices: which should win is the author's call), or the later one is
  the one that re-selects nothing.
* G is chosen on the launch line; an option is not chosen on the launch line; option files
  preflight cannot find or read; `override` entries with a package (`/G@pkg`).
"""
    bad_examples = examples("preflight.rules.plan._pf649_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf649_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import find_apps
            from preflight.workspace import display_path
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        root = pctx.project.root
        # the apps as found, not as composed: the rule reads three files of the defaults tree and needs no
        # composition (which stops at any group the project does not ship)
        for app in find_apps(pctx.project):
            if app.script is None or app.how != "@hydra.main":
                continue
            config_dir: Optional[Path] = app.config_dir
            name = _name(app.config_name)
            if config_dir is None or name is None:
                continue
            primary_path = config_dir / f"{name}.yaml"
            primary = load_config_file(primary_path, display_path(primary_path, root), "yaml")
            if primary is None:
                continue
            args = [*app.overrides, *pctx.project.script_args(app.script)]
            chosen = {}
            for tok in args:
                key, eq, value = tok.partition("=")
                if eq and not tok.startswith(("-", "+", "~")) and "." not in key and _name(value):
                    chosen[key.strip()] = _name(value)
            defaults = {key: (index, option) for index, key, option in _entries(primary.data)}
            picked = []  # (position in the primary's defaults list, group, option file's overrides)
            for group, option in chosen.items():
                if group not in defaults or option is None or ".." in option or option.startswith("/"):
                    continue
                path = config_dir / group / f"{option}.yaml"
                if not pctx.project.may_read(path) or not os.path.isfile(path):
                    continue
                loaded = load_config_file(path, display_path(path, root), "yaml")
                if loaded is None:
                    continue
                picked.append((defaults[group][0], group, option, loaded, _overrides(loaded.data)))
            picked.sort(key=lambda p: p[0])
            for i, (pos, group, option, loaded, mine) in enumerate(picked):
                for _later_pos, later_group, later_option, later_loaded, theirs in picked[i + 1:]:
                    for target, (_, choice) in mine.items():
                        if target in chosen or target not in theirs or target not in defaults:
                            continue
                        default = defaults[target][1]
                        _, their_choice = theirs[target]
                        if default is None or their_choice != default or choice == default:
                            continue
                        line = primary.line_of(("defaults", pos), nearest=True) or 1
                        evidence = [pctx.config_evidence(later_loaded, ("defaults", theirs[target][0]),
                                                         f"re-selects `{target}: {default}` (the default)")]
                        yield pctx.location_finding(self, primary.path, line, (
                            f"`{group}` comes before `{later_group}` in {primary.path}'s defaults list, and the launch "
                            f"chooses both (`{group}={option} {later_group}={later_option}`): {later_loaded.path} "
                            f"says `override /{target}: {default}`, the option {target} already has, and Hydra keeps "
                            f"the last override of a group in the defaults tree, so {loaded.path}'s `override "
                            f"/{target}: {choice}` is silently undone and the run uses `{target}/{default}`. List "
                            f"`{group}` after `{later_group}` in the defaults list (or drop the no-op override, or "
                            f"choose `{target}={choice}` on the launch line)"), evidence=evidence)
