"""PF575 hydra-run-dir-key-not-composed: ``hydra.run.dir`` (or the sweep folder) interpolates a key that
the app's composed config does not have, so Hydra stops before the app runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.loaders import LoadedConfig, load_config_file
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_apps import hydra_main_apps

_INTERP = re.compile(r"\$\{([^${}]+)\}")
_ABSENT = object()


def _lookup(config: Any, path: list[str]) -> Any:
    for part in path:
        if not isinstance(config, dict) or part not in config:
            return _ABSENT
        config = config[part]
    return config


def _references(text: str) -> Iterator[str]:
    """Absolute config keys a string interpolates (``${local.log_dir}``); resolvers (``${now:...}``),
    relative keys and Hydra's own node are left out."""
    for match in _INTERP.finditer(text):
        body = match.group(1).strip()
        if ":" in body or body.startswith(".") or body == "hydra" or body.startswith("hydra.") or not body:
            continue
        yield body


def _hydra_choice(primary: LoadedConfig) -> Optional[tuple[int, str]]:
    """(index in the defaults list, option) of the primary config's ``- hydra: option`` entry."""
    defaults = primary.data.get("defaults") if isinstance(primary.data, dict) else None
    if not isinstance(defaults, list):
        return None
    for index, entry in enumerate(defaults):
        if isinstance(entry, dict) and len(entry) == 1:
            (key, value), = entry.items()
            if str(key).strip() in ("hydra", "override hydra") and isinstance(value, str) and value:
                return index, value
    return None


def _dirs(config: Optional[LoadedConfig], prefix: tuple, multirun: bool) -> list[tuple[tuple, str]]:
    """(key path in the file, value) of the output folders Hydra resolves at start-up."""
    if config is None:
        return []
    parts = (("sweep", "dir"), ("sweep", "subdir")) if multirun else (("run", "dir"),)
    out = []
    for part in parts:
        value = config.get((*prefix, *part))
        if isinstance(value, str):
            out.append(((*prefix, *part), value))
    return out

def _run_dir_settings(pctx: PlanContext, primary: LoadedConfig, config_dir: Path,
                      multirun: bool) -> Optional[tuple[Optional[LoadedConfig], list[tuple[tuple, str]]]]:
    """The run (or sweep) directories the composed config sets, and the loaded config holding them:
    the primary config's own ``hydra:`` node, or the ``hydra/<choice>.yaml`` option its defaults
    list selects. None when both set one (which wins depends on ``_self_``'s place)."""
    from preflight.workspace import display_path

    choice = _hydra_choice(primary)
    option = None
    if choice is not None:
        name = choice[1][:-5] if choice[1].endswith(".yaml") else choice[1]
        path = config_dir / "hydra" / f"{name}.yaml"
        if ".." not in name and not name.startswith("/") and pctx.project.may_read(path):
            option = load_config_file(path, display_path(path, pctx.project.root), "yaml")
    own = _dirs(primary, ("hydra",), multirun)
    from_option = _dirs(option, (), multirun)
    if own and from_option:
        return None
    return (primary if own else option), (own or from_option)


def composed_run_dirs(pctx: PlanContext, comp: Any) -> Optional[tuple[Optional[LoadedConfig], list[tuple[tuple, str]]]]:
    """:func:`_run_dir_settings` of a composed ``@hydra.main`` app's primary config (single run);
    None when it has no primary config or config directory, or both places set a run dir."""
    config_dir = comp.config_dir or comp.app.config_dir
    primary = next((loaded for item, loaded in comp.item_configs if item.package == ""), None)
    if primary is None or config_dir is None:
        return None
    return _run_dir_settings(pctx, primary, config_dir, False)


@register
class HydraRunDirKeyNotComposed(PlanRule):
    code = "PF575"
    name = "hydra-run-dir-key-not-composed"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("`hydra.run.dir` (or the sweep folder) interpolates a key the app's composed config does not "
               "have: Hydra stops before the app runs")
    explanation = """
## What it finds

An `@hydra.main` app whose output folder, `hydra.run.dir` (for a `--multirun`:
`hydra.sweep.dir` and `hydra.sweep.subdir`), set in the `hydra` option its primary
config selects (`- hydra: default.yaml` in the defaults list) or in the primary config
itself, interpolates a key (`${local.log_dir}`) that the app's composed config (primary
config, defaults list, launch overrides) does not contain.

## Why it matters

Hydra resolves the output folder before it calls the app, against the whole composed
config. A key that the defaults list of *this* primary config never brings in (a
`local` or `paths` group that `train.yaml` selects but `eval.yaml` does not) stops
the run at start-up with `InterpolationKeyError: Interpolation key 'local.log_dir' not
found, full_key: hydra.run.dir` (conditional-flow-matching issue 130; the maintainer:
"hydra.run.dir looks for local.log_dir"). A project with several entry points
usually shares one `hydra/default.yaml`, so the entry point that is run less often
breaks.

## How to fix it

Add the group that defines the key to this primary config's defaults list
(`- local: default.yaml`), give the key in the config, or pass `hydra.run.dir=...`
on the launch line.

## When preflight stays silent

* The key is in the composed config (from any config of the defaults list, or an
  override such as `+local.log_dir=logs`).
* The launch line sets the folder itself (`hydra.run.dir=...`).
* Resolvers (`${now:%Y-%m-%d}`, `${oc.env:HOME}`) and Hydra's own keys
  (`${hydra.job.name}`); the compose API (`compose()`), which resolves no output folder.
* Both the primary config and its `hydra` option set the folder (which one wins
  depends on `_self_`'s place: not decided).
"""
    bad_examples = examples("preflight.rules.plan._pf575_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf575_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for comp in hydra_main_apps(pctx):
            config_dir = comp.config_dir or comp.app.config_dir
            args = [*comp.app.overrides, *pctx.project.script_args(comp.app.script)]
            if config_dir is None or any(t.lstrip("+").startswith(("hydra.run", "hydra.sweep", "hydra=")) for t in args):
                continue
            multirun = any(t in ("-m", "--multirun") for t in args) or any(
                t in ("-m", "--multirun") for t in pctx.project.argv)
            primary = next((loaded for item, loaded in comp.item_configs if item.package == ""), None)
            if primary is None:
                continue
            settings = _run_dir_settings(pctx, primary, config_dir, multirun)
            if settings is None:
                continue
            holder, where = settings
            own = holder is primary   # the primary's own hydra: node, else the hydra/<choice>.yaml option
            choice = _hydra_choice(primary)
            for key_path, value in where:
                for ref in _references(value):
                    if _lookup(comp.config, ref.split(".")) is not _ABSENT:
                        continue
                    full = "hydra." + ".".join(key_path[1:] if own else key_path)
                    top = ref.split(".")[0]
                    message = (f"`{full}` is `{value}`, which interpolates `${{{ref}}}`, but the config this app "
                               f"composes ({primary.path} and its defaults list) has no `{ref}`: Hydra resolves the "
                               f"output folder before the app runs and stops with InterpolationKeyError "
                               f"\"Interpolation key '{ref}' not found\". Add the group that defines `{top}` to "
                               f"{primary.path}'s defaults list, or give the key in the config")
                    assert holder is not None
                    if own or choice is None:
                        yield pctx.config_finding(self, holder, key_path, message)
                    else:
                        evidence = [pctx.config_evidence(holder, key_path, f"`{full}` is set here")]
                        line = primary.line_of(("defaults", choice[0]), nearest=True) or 1
                        yield pctx.location_finding(self, primary.path, line, message, evidence=evidence)
                    break
                else:
                    continue
                break

