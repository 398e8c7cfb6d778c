"""PF519 hydra-self-overridden-by-defaults: ``_self_`` listed before a default that overrides the file's own values."""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._hydra_tree import config_leaves, config_lookup, package_path

_MISSING = "???"


def _child_paths(entries: list[Any], own_group: str) -> list[tuple[int, str]]:
    """(index in the defaults list, config path) of the entries a file lists, as Hydra names them."""
    out: list[tuple[int, str]] = []
    for index, entry in enumerate(entries):
        if isinstance(entry, str) and entry != "_self_":
            name = entry.partition("@")[0].split()[-1] if entry.strip() else ""
            if not name:
                continue
            path = name[1:] if name.startswith("/") else "/".join(p for p in (own_group, name) if p)
        elif isinstance(entry, dict) and len(entry) == 1:
            (key, option), = entry.items()
            words = str(key).split()
            if not words or "override" in words[:-1] or not isinstance(option, str):
                continue  # override entries and null / list options are not composed here
            group = words[-1].partition("@")[0]
            group_path = group[1:] if group.startswith("/") else "/".join(p for p in (own_group, group) if p)
            path = f"{group_path}/{option}"
        else:
            continue
        for ext in (".yaml", ".yml"):
            if path.endswith(ext):
                path = path[: -len(ext)]
        out.append((index, path))
    return out


def _group_package(item: Any) -> str:
    """The item's package with Hydra 1.0's ``_group_`` placeholder (``# @package _group_``) replaced
    by the group the option belongs to (``optimizer/adamw`` -> ``optimizer``)."""
    package = str(item.package or "")
    if "_group_" not in package:
        return package
    group = item.config_path.rsplit("/", 1)[0].replace("/", ".") if "/" in item.config_path else ""
    return package.replace("_group_", group).strip(".")



def _override_evidence(loaded: Any, own_path: Any, own_value: Any, child_loaded: Any, child_key: Any, value: Any,
                       merged: str) -> list[Evidence]:
    """The file's own value and the value merged over it, each at its line where the files say."""
    evidence: list[Evidence] = []
    own_line = loaded.line_of(own_path, nearest=True)
    if own_line is not None:
        evidence.append(Evidence(line=own_line, path=loaded.path,
                                 message=f"this file sets {'.'.join(own_path)}: {own_value!r}"))
    child_line = child_loaded.line_of(child_key, nearest=True)
    if child_line is not None:
        evidence.append(Evidence(line=child_line, path=child_loaded.path,
                                 message=f"{merged}: {'.'.join(child_key)}: {value!r}"))
    return evidence

@register
class HydraSelfOverriddenByDefaults(PlanRule):
    code = "PF519"
    name = "hydra-self-overridden-by-defaults"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("hydra",)
    summary = "`_self_` comes before a default that sets the same keys: the file's own values never take effect"
    explanation = """
## What it finds

A config of a composed `@hydra.main` app whose defaults list names `_self_` before
another entry, when that entry's config (composed after the file itself) sets a key
the file also sets, to a different value, and that value is the one the composed
config ends with.

## Why it matters

Hydra merges the defaults list in order: whatever comes after `_self_` overrides the
file's own values. A file that extends a base config (`defaults: [_self_, base]`) and
then sets `n_components: 2` trains with the base's 4, silently - the run's log and
the config on disk disagree (sinusoidal-gradient-descent issue 4: the |K|=2
experiments trained K=4). Hydra 1.0 composed the primary config first, so configs
written for 1.0 and moved to 1.1 with an explicit `_self_` first keep that order.

## How to fix it

Move `_self_` to the end of the defaults list (Hydra 1.1's default when `_self_` is
not listed), or drop the keys from the file if the base is meant to win.

## When preflight stays silent

* `_self_` is last, or the entries after it set none of the file's keys, or set them
  to the same value.
* The file's value is `???`: a scaffold (`optim: {name: ???, lr: ???}`) that `_self_` first
  lets the group fill, the use Hydra's composition order was made for (hydra issue 326).
* The overriding config was chosen on the launch line (`experiment=...`): choosing it
  there is how a user asks for its values.
* A later config or the launch line sets the key again (the file's value was not the
  one lost to the ordering).
* The entry after `_self_` is a group option whose header places it at the top level
  (`# @package _global_`): an overlay written to override other nodes' values (Hydra's
  documented experiment pattern; VISSL's dataset configs override the primary's generic
  scaffolding this way, VISSL PR 368).
* Without `_self_` in a primary config, only a project that pins hydra-core below 1.1 is
  reported (`hydra-core==1.0.4` in requirements.txt): Hydra 1.0 merged the primary config
  before its defaults list, so a group option listed there overrides the values the primary
  sets under that group (hydra issue 1233); 1.1 and later append a missing `_self_` last.
  A key the launch line sets is not reported.
* Configs the composition does not reach (not composed for this app), and the
  children of the overriding entry (only the configs the file itself lists are compared).
  When the app's whole composition fails (the primary names an option file the audit does
  not have), each group config's own defaults list is still composed on its own: options of
  its directory without a `# @package` header listed after `_self_` that set one of its keys
  to another value are reported (lightning-hydra-template issue 544: `_self_` first in
  `callbacks/default.yaml`, so `model_checkpoint.yaml`'s `monitor: null` and `mode: "min"`
  replace the file's `"val/acc"` and `"max"`); primary configs, `_global_` or relocated
  options, and groups the launch line selects are not judged that way.
"""
    bad_examples = examples("preflight.rules.plan._pf519_examples", "PF519_BAD")
    good_examples = examples("preflight.rules.plan._pf519_examples", "PF519_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        try:
            from preflight.adapters.hydra import Composed, compositions
            from preflight.adapters.hydra_compose import (
                ComposeError,
                defaults_line,
                read_config_file,
            )
        except ImportError:  # pragma: no cover - the adapter ships with preflight
            return
        from preflight.adapters.hydra import find_apps

        seen: set[tuple[str, int]] = set()
        for app, comp in zip(find_apps(pctx.project), compositions(pctx.project)):
            if not isinstance(comp, Composed):
                yield from self._uncomposed(pctx, app, read_config_file, ComposeError, defaults_line, seen)
                continue
            items = comp.item_configs
            final = comp.config
            for pos, (item, loaded) in enumerate(items):
                if item.file is None:
                    continue
                try:
                    cfg = read_config_file(item.file)
                except ComposeError:
                    continue
                entries = list(cfg.defaults)
                legacy = None
                if "_self_" not in entries:
                    legacy = self._legacy_primary(pctx, comp, item, pos)
                    if legacy is None:
                        continue
                self_at = entries.index("_self_") if legacy is None else -1
                own_group = item.config_path.rsplit("/", 1)[0] if "/" in item.config_path else ""
                children = [(i, p) for i, p in _child_paths(entries, own_group) if i > self_at]
                if not children:
                    continue
                mine = {(*package_path(item.package), *path): (path, value) for path, value in config_leaves(cfg.body, ())}
                lost: list[tuple[tuple[str, ...], tuple[str, ...], Any, Any, Any, Any, int]] = []
                for _index, child_path in children:
                    # a missing `_self_` is appended last by the composer: the primary's children precede it
                    found = self._child(items, pos if legacy is None else -1, child_path)
                    if found is None:
                        continue
                    child_item, child_loaded = found
                    try:
                        child_cfg = read_config_file(child_item.file)
                    except ComposeError:
                        continue
                    if "/" in child_path and (child_cfg.header or "").strip() == "_global_":
                        continue  # an overlay (experiment, dataset) written to override other nodes
                    for path, value in config_leaves(child_cfg.body, ()):
                        full = (*package_path(_group_package(child_item)), *path)
                        if full not in mine or full[:1] == ("hydra",) or value == _MISSING:
                            continue
                        own_path, own_value = mine[full]
                        if own_value in (value, _MISSING):
                            continue  # the same value, or a `???` scaffold the group is meant to fill
                        if legacy is None and config_lookup(final, full) != value:
                            continue
                        if legacy is not None and (full in comp.cli or config_lookup(final, full) != own_value):
                            continue  # set on the launch line, or by another config composed after the file
                        lost.append((full, own_path, own_value, value, child_loaded, path, _index))
                if not lost:
                    continue
                if legacy is not None:
                    yield from self._legacy_finding(pctx, item, loaded, legacy, lost, defaults_line, seen)
                    continue
                line = defaults_line(item.file, self_at)
                if line is None or (loaded.path, line) in seen:
                    continue
                seen.add((loaded.path, line))
                full, own_path, own_value, value, child_loaded, child_key, _ = lost[0]
                more = f" (and {len(lost) - 1} more key{'s' if len(lost) > 2 else ''})" if len(lost) > 1 else ""
                message = (f"`_self_` comes first in this defaults list, so {child_loaded.path} (composed after "
                           f"it) overrides this file's own values: `{'.'.join(own_path)}: {own_value!r}` becomes "
                           f"{value!r}{more}. Move `_self_` to the end of the defaults list so this file's "
                           "values win")
                evidence = _override_evidence(loaded, own_path, own_value, child_loaded, child_key, value,
                                              "composed after `_self_`")
                yield pctx.location_finding(self, loaded.path, line, message, evidence=evidence)

    def _uncomposed(self, pctx: PlanContext, app: Any, read_config_file: Any, error: Any, defaults_line: Any,
                    seen: set[tuple[str, int]]) -> Iterable[Finding]:
        """The app's full composition failed (an option file of the primary's defaults list is not
        there): each group config's own defaults list is composed locally (:mod:`._pf519_local`)."""
        from preflight.adapters.hydra_compose import relative
        from preflight.loaders import load_config_file
        from preflight.rules.plan._pf519_local import local_lost

        if app.config_dir is None or not os.path.isdir(app.config_dir) or not pctx.project.may_read(app.config_dir):
            return
        args = pctx.project.script_args(app.script) if app.script is not None else []
        selected = {t.partition("=")[0].lstrip("+/") for t in args if "=" in t and "." not in t.partition("=")[0]}
        cli = {tuple(t.partition("=")[0].lstrip("+~").split(".")) for t in args if "=" in t}
        for path, self_at, lost in local_lost(app.config_dir, selected, cli, read_config_file, error):
            shown = relative(path, pctx.project.root)
            line = defaults_line(path, self_at)
            loaded = load_config_file(path, shown)
            if line is None or loaded is None or (shown, line) in seen:
                continue
            seen.add((shown, line))
            own_path, own_value, child, child_key, value = lost[0]
            child_loaded = load_config_file(child, relative(child, pctx.project.root))
            more = f" (and {len(lost) - 1} more key{'s' if len(lost) > 2 else ''})" if len(lost) > 1 else ""
            message = (f"`_self_` comes first in this defaults list, so {relative(child, pctx.project.root)} "
                       f"(composed after it) overrides this file's own values: `{'.'.join(own_path)}: "
                       f"{own_value!r}` becomes {value!r}{more}. Move `_self_` to the end of the defaults list "
                       "so this file's values win")
            evidence = [] if child_loaded is None else _override_evidence(
                loaded, own_path, own_value, child_loaded, child_key, value, "composed after `_self_`")
            yield pctx.location_finding(self, shown, line, message, evidence=evidence)

    @staticmethod
    def _legacy_primary(pctx: PlanContext, comp: Any, item: Any, pos: int) -> Any:
        """The pinned hydra-core version when it is below 1.1 and ``item`` is the app's primary config:
        Hydra 1.0 merged a primary config without ``_self_`` first, before its defaults list (1.1
        reversed the order: a missing ``_self_`` is appended last)."""
        name = str(comp.app.config_name or "")
        for ext in (".yaml", ".yml"):
            if name.endswith(ext):
                name = name[: -len(ext)]
        if not name or item.config_path != name or comp.app.script is None:
            return None
        if any(it.config_path == name for it, _ in comp.item_configs[:pos]):
            return None
        version = pctx.version("hydra-core", comp.app.script)
        if version is None or version.how != "pinned" or version.at_least(1, 1):
            return None
        return version

    def _legacy_finding(self, pctx: PlanContext, item: Any, loaded: Any, version: Any, lost: list, defaults_line: Any,
                        seen: set[tuple[str, int]]) -> Iterable[Finding]:
        _full, own_path, own_value, value, child_loaded, child_key, index = lost[0]
        line = defaults_line(item.file, index)
        if line is None or (loaded.path, line) in seen:
            return
        seen.add((loaded.path, line))
        more = f" (and {len(lost) - 1} more key{'s' if len(lost) > 2 else ''})" if len(lost) > 1 else ""
        message = (f"this primary config lists no `_self_`, and the project pins {version.describe()}: Hydra 1.0 "
                   f"merges the primary config first and its defaults list after it, so {child_loaded.path} "
                   f"overrides this file's own values: `{'.'.join(own_path)}: {own_value!r}` becomes {value!r}"
                   f"{more}. Hydra 1.1 reversed the order; on 1.0 set the values in the group's option file or "
                   "on the command line (or upgrade to hydra-core 1.1 or later and list `_self_` last)")
        evidence = _override_evidence(loaded, own_path, own_value, child_loaded, child_key, value,
                                      "merged after the primary on Hydra 1.0")
        where = version.where.rsplit(":", 1)
        evidence.append(Evidence(line=int(where[1]) if len(where) == 2 and where[1].isdigit() else 1, path=where[0],
                                 message="the pinned hydra-core version"))
        yield pctx.location_finding(self, loaded.path, line, message, evidence=evidence)

    @staticmethod
    def _child(items: list, pos: int, config_path: str) -> Optional[tuple[Any, Any]]:
        """The item a defaults entry became: the first one after ``pos`` with its config path."""
        for item, loaded in items[pos + 1:]:
            if item.config_path == config_path and item.file is not None:
                return item, loaded
        return None
