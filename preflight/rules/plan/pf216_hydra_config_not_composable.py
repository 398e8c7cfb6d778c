"""PF216 hydra-config-not-composable: the job's Hydra configs and launch line cannot be composed
(a node given as a mapping and as a list, a mandatory defaults entry the launch does not
select, a defaults entry naming an option file the config folder lacks)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, FileError, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import read_text_limited


def _config_file(config_dir: Path, name: str) -> Optional[Path]:
    try:
        from preflight.adapters.hydra_compose import find_file, strip_config_ext

        return find_file(config_dir, strip_config_ext(name.strip().lstrip("/")))
    except Exception:  # a name leaving the directory: not located
        return None


def _loaded(path: Path) -> Any:
    from preflight.loaders import load_config_text

    try:
        text = read_text_limited(path, errors="replace")
    except OSError:
        return None
    loaded = load_config_text(text, "yaml", str(path))
    return None if isinstance(loaded, FileError) else loaded


def _nodes(data: Any, path: tuple[Any, ...], depth: int = 0) -> Iterable[tuple[tuple[Any, ...], Any]]:
    if depth > 20 or not isinstance(data, dict):
        return
    for key, value in data.items():
        if path == () and key in ("defaults", "hydra"):
            continue
        if isinstance(value, (dict, list)):
            yield (*path, key), value
        if isinstance(value, dict):
            yield from _nodes(value, (*path, key), depth + 1)


def _lookup(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _merge_conflict(config_dir: Path, named: Path) -> Optional[tuple[tuple[Any, ...], int, str]]:
    """(key path in ``named``, its line, the other file) of a node that ``named`` gives as a list
    and another config of the folder (at its group's default package) as a mapping, or back."""
    own = _loaded(named)
    if own is None or not isinstance(own.data, dict):
        return None
    rel = named.relative_to(config_dir)
    own_prefix = tuple(rel.parent.parts)
    others = []
    for folder, dirs, files in os.walk(config_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            file = Path(folder) / name
            if file.suffix not in (".yaml", ".yml") or file == named:
                continue
            other = _loaded(file)
            if other is not None and isinstance(other.data, dict):
                others.append((tuple(file.relative_to(config_dir).parent.parts), other, file))
        if len(others) > 500:
            break
    for key_path, value in _nodes(own.data, ()):
        full = (*own_prefix, *key_path)
        for prefix, other, other_file in others:
            if full[:len(prefix)] != prefix or len(full) == len(prefix):
                continue
            theirs = _lookup(other.data, full[len(prefix):])
            if isinstance(theirs, (dict, list)) and isinstance(theirs, dict) != isinstance(value, dict):
                line = own.line_of(key_path, nearest=True)
                if line is not None:
                    return key_path, line, other_file.relative_to(config_dir).as_posix()
    return None


def _entry_line(file: Path, group: str, name: str) -> Optional[int]:
    from preflight.adapters.hydra_compose import defaults_line, read_config_file

    try:
        defaults = read_config_file(file).defaults
    except Exception:  # unreadable: not located
        return None
    for index, entry in enumerate(defaults):
        if isinstance(entry, dict) and len(entry) == 1:
            (key, value), = entry.items()
            key = str(key).replace("override ", "").strip().lstrip("/").split("@")[0]
            values = value if isinstance(value, list) else [value]
            if key == group and name in [str(v) for v in values]:
                return defaults_line(file, index)
    return None


def _entry_with(config_dir: Path, text: str) -> Optional[tuple[Path, int]]:
    """(file, line) of the first defaults entry (``- group: <text>``) of a config under ``config_dir`` that holds
    ``text``."""
    for folder, dirs, names in sorted(os.walk(config_dir)):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if not name.endswith((".yaml", ".yml")):
                continue
            path = Path(folder) / name
            try:
                lines = read_text_limited(path, errors="replace").splitlines()
            except OSError:
                continue
            for number, line in enumerate(lines, 1):
                if line.lstrip().startswith("-") and text in line:
                    return path, number
    return None


def _plain_entry(config_dir: Path, group: str, name: str) -> Optional[tuple[Path, int]]:
    """The config file (and line) whose defaults list selects ``group: name`` without ``override``."""
    from preflight.adapters.hydra_compose import defaults_line, read_config_file

    seen = 0
    for folder, dirs, files in os.walk(config_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for file_name in sorted(files):
            if not file_name.endswith((".yaml", ".yml")):
                continue
            seen += 1
            if seen > 500:
                return None
            path = Path(folder) / file_name
            try:
                defaults = read_config_file(path).defaults
            except Exception:  # unreadable: not located
                continue
            for index, entry in enumerate(defaults):
                if not isinstance(entry, dict) or len(entry) != 1:
                    continue
                (key, value), = entry.items()
                key = str(key).strip()
                if key.startswith("override") or key.lstrip("/").split("@")[0] != group or str(value) != name:
                    continue
                line = defaults_line(path, index)
                if line is not None:
                    return path, line
    return None


@register
class HydraConfigNotComposable(PlanRule):
    code = "PF216"
    name = "hydra-config-not-composable"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = ("The job's Hydra configs cannot be composed: a node is a mapping in one config and a list in another, "
               "a mandatory defaults entry is left unselected, or a defaults entry names a missing option file")
    explanation = """
## What it finds

A `@hydra.main` app whose config, composed the way Hydra composes it (hydra-core's
compose API when it is installed, else preflight's composer) with the launch line's
overrides, fails for one of five reasons that do not depend on code preflight does
not run:

* **a mapping merged with a list**: one config of the defaults list gives a node as a
  mapping (`pl: {param: [q, t]}`) and a later one as a list (`pl: [u, v, w]`);
* **a mandatory defaults entry left unselected**: a defaults entry `group: ???` (often
  relocated, `/module/model@model: ???`) that the known launch line does not select
  with its full override key (`module/model@predictor.model=model_1`);
* **an option file that is not there**: a defaults entry `group: name` whose folder
  `group/` exists in the config directory without `name.yaml`, or an entry of Hydra's
  own node (`hydra: defaults`) other than the `config` hydra-core ships.

* **a group selected twice**: a config of the defaults list (an experiment config
  selected with `+experiment=ci_small`) lists `- /dataset: small` for a group the
  primary config already chose, without the `override` keyword.
* **a resolver as a defaults entry's option**: `- override hydra/launcher: ${oc.env:HYDRA_LAUNCHER}`;
  a defaults list interpolates only config group choices (`${db}`), and hydra-core 1.1 and later
  stop with "ConfigCompositionException: Error resolving interpolation '${oc.env:HYDRA_LAUNCHER}',
  possible interpolation keys: ..." (hydra issue 1668: it worked in Hydra 1.0).

## Why it matters

Hydra composes the whole config before the app's function is called; any of these
stops the run with `ConfigCompositionException` after the job was queued:

* `_compose_config_from_defaults_list` in hydra-core's
  `hydra/_internal/config_loader_impl.py` merges each config of the defaults list with
  OmegaConf and re-raises OmegaConf's error as `In 'config': ConfigTypeError raised
  while composing config: Cannot merge DictConfig with ListConfig` (anemoi-core issue
  435);
* `_check_not_missing` in `hydra/_internal/defaults_list.py` raises `You must specify
  'module/model@predictor.model', e.g, module/model@predictor.model=<OPTION>`; an
  override naming the group without the package (`module/model=model_1`) does not
  address a relocated entry (hydra issue 1858);
* the defaults-list builder raises `In 'default_config': Could not find 'hydra/defaults'`
  (splatter-image issue 3: the repository never committed `configs/hydra/defaults.yaml`);
* `hydra/_internal/defaults_list.py` refuses a second plain entry for a group: "Multiple
  values for dataset. To override a value use 'override dataset: small'" (hydra issue
  2680; checked with hydra-core 1.3.8).

## How to fix it

Give the node one shape in every config (`pl: {param: [u, v, w]}`); select a
mandatory entry with its override key as Hydra prints it (`group@package=option`);
add the missing option file, or set the options inline (`hydra: {run: {dir: ...}}`);
write `- override /group: option` to replace a group's option from another config.

## When preflight stays silent

* The config composes (sweeps are composed with each swept group's default).
* A mandatory entry when no launch line is known (the user is expected to choose it
  on the command line), under `--multirun`/sweeps, or for a `compose()` call.
* A missing option that the launch line selects (`data=nope`: Hydra's own message,
  listing the available options, stays an input error).
* A missing option of a `hydra/...` subgroup (launcher, sweeper, logging options come
  from Hydra plugins), of a group with no folder in the config directory, or when any
  Python file of the project mentions `ConfigStore` or a config sets
  `hydra.searchpath` (the option may be registered elsewhere).
* Any other composition failure (reported as an input preflight could not read).
"""
    bad_examples = examples("preflight.rules.plan._pf216_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf216_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import compositions, find_apps
            from preflight.adapters.hydra_failures import job_failure
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        project = pctx.project
        for app, comp in zip(find_apps(project), compositions(project)):
            if not isinstance(comp, FileError):
                continue
            failure = job_failure(project, app, comp.message)
            if failure is None:
                continue
            finding = self._finding(pctx, app, comp, failure)
            if finding is not None:
                yield finding

    def _finding(self, pctx: PlanContext, app: Any, comp: FileError, failure: Any) -> Optional[Finding]:
        project = pctx.project
        config_dir = Path(app.config_dir) if app.config_dir is not None else None
        named = _config_file(config_dir, failure.config) if config_dir is not None and failure.config else None
        shown = None
        if named is not None:
            from preflight.adapters.hydra_compose import relative

            shown = relative(named, Path(str(project.root)))
        if failure.kind == "merge":
            left, right = failure.detail
            where = _merge_conflict(config_dir, named) if config_dir is not None and named is not None else None
            if where is not None and shown is not None:
                key, line, other = where
                dotted = ".".join(str(k) for k in key)
                shape = "a list" if right == "ListConfig" else "a mapping"
                message = (f"`{dotted}` is given here as {shape}, but {other} gives the same node the other shape: "
                           f"Hydra stops while composing with \"ConfigTypeError ... Cannot merge {left} with "
                           f"{right}\" before the app runs; give the node one shape in every config")
                return pctx.location_finding(self, shown, line, message)
            message = (f"Hydra cannot compose this app's config: \"Cannot merge {left} with {right}\" in "
                       f"'{failure.config}' (a node is a mapping in one config and a list in another); give the "
                       "node one shape in every config")
            return self._at(pctx, comp, message)
        if failure.kind == "mandatory":
            key = failure.detail[0]
            message = (f"the launch does not select the mandatory defaults entry `{key}` (`???`): Hydra stops with "
                       f"\"You must specify '{key}', e.g, {key}=<OPTION>\" before the app runs; select it with "
                       f"`{key}=<option>` (a relocated entry needs its `@package` in the override key)")
            if project.launch_at is not None:
                path, line = project.launch_at
                return pctx.location_finding(self, path, line, message)
            return self._at(pctx, comp, message)
        if failure.kind == "multiple":
            return self._multiple(pctx, comp, config_dir, *failure.detail)
        if failure.kind == "resolver-entry":
            return self._resolver_entry(pctx, comp, config_dir, failure.detail[0])
        group, name = failure.detail
        message = (f"the defaults list selects `{group}: {name}`, but the config directory has no "
                   f"{group}/{name}.yaml: Hydra stops with \"Could not find '{group}/{name}'\" before the app runs; "
                   + ("add the file or set Hydra's options inline under a `hydra:` key"
                      if group == "hydra" else "add the option file or select an option the folder has"))
        if named is not None and shown is not None:
            entry = _entry_line(named, group, name)
            if entry is not None:
                return pctx.location_finding(self, shown, entry, message)
        return self._at(pctx, comp, message)

    def _multiple(self, pctx: PlanContext, comp: FileError, config_dir: Optional[Path], group: str,
                  name: str) -> Optional[Finding]:
        message = (f"this defaults entry selects `{group}: {name}` although the defaults list already chose an option "
                   f"for `{group}`: a second plain entry does not replace the first, and Hydra (1.1 and later) stops "
                   f"while composing with \"Multiple values for {group}. To override a value use 'override {group}: "
                   f"{name}'\" before the app runs; write `- override /{group}: {name}`")
        if config_dir is not None:
            found = _plain_entry(config_dir, group, name)
            if found is not None:
                from preflight.adapters.hydra_compose import relative

                return pctx.location_finding(self, relative(found[0], Path(str(pctx.project.root))), found[1],
                                             message)
        return self._at(pctx, comp, message)

    def _resolver_entry(self, pctx: PlanContext, comp: FileError, config_dir: Optional[Path],
                        text: str) -> Optional[Finding]:
        message = (f"this defaults entry's option is `{text}`, a resolver: a defaults list interpolates only config "
                   "group choices (`${group}`), so Hydra 1.1 and later stop while composing with "
                   f"\"ConfigCompositionException: Error resolving interpolation '{text}'\" before the app runs; "
                   "choose the option on the launch line (`group=$VAR`) or name it in the entry")
        if config_dir is not None:
            found = _entry_with(config_dir, text)
            if found is not None:
                from preflight.adapters.hydra_compose import relative

                return pctx.location_finding(self, relative(found[0], Path(str(pctx.project.root))), found[1],
                                             message)
        return self._at(pctx, comp, message)

    def _at(self, pctx: PlanContext, comp: FileError, message: str) -> Optional[Finding]:
        if comp.line is None:
            return None
        return pctx.location_finding(self, comp.path, comp.line, message)
