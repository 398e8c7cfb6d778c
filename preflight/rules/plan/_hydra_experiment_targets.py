"""Experiment configs (``# @package _global_`` files of a group: ``conf/experiment/x.yaml``) that give
an existing node of the app's config a new ``_target_`` as a mapping (hydra issue 1896).

Hydra merges a config file into the composed config key by key (``OmegaConf.merge``): a mapping that an
experiment writes at ``model.loss`` does not replace the node the defaults already composed there, so the
old node's other keys stay beside the new ``_target_`` and ``instantiate`` passes them to the new class.
Jasha10 in the issue: "dictionaries are merged (as opposed to overwriting), and there is currently no way
to change the strategy"; the fix is a config group whose options replace each other
(``- override /model/loss: new``).

The node an experiment merges into is the app's config composed from its own defaults list with the
experiment's ``override /group: option`` entries and without the launch line's overrides (preflight's
composer); an experiment whose defaults list holds other kinds of entries is skipped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Optional

from preflight.rules.plan._hydra_dict_override import HYDRA_FLAGS


@dataclass
class ExperimentMerge:
    path: str  # the experiment file, as displayed
    line: Optional[int]  # the line of its `_target_`
    key: str  # the node's dotted key in the composed config
    old: str
    new: str
    stale: list[str]  # keys of the composed node the experiment leaves out
    where: Optional[tuple[str, Optional[int]]]  # the composed node's file and line


def _targets(data: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """(key path, mapping) of every mapping with a string ``_target_`` in ``data``."""
    if not isinstance(data, dict):
        return
    if prefix and isinstance(data.get("_target_"), str):
        yield prefix, data
    for key, value in data.items():
        if key != "defaults" and isinstance(value, dict):
            yield from _targets(value, (*prefix, str(key)))


def _lookup(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _group_overrides(data: Any) -> Optional[list[str]]:
    """The file's own defaults list as launch overrides (``- override /model: mnist`` -> ``model=mnist``);
    None when it holds another kind of entry (a plain group entry, an option list, a package)."""
    out: list[str] = []
    entries = data.get("defaults") if isinstance(data, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if entry == "_self_":
            continue
        if not (isinstance(entry, dict) and len(entry) == 1):
            return None
        key, value = next(iter(entry.items()))
        key = str(key)
        if not key.startswith("override ") or "@" in key or not isinstance(value, str):
            return None
        out.append(f"{key[len('override '):].strip().lstrip('/')}={value}")
    return out


_MAX_DEPTH = 3  # config groups nest a few folders deep (`experiment/`, `model/loss/`)
_MAX_FILES = 400  # a config_path of "." would otherwise walk the whole project


def _global_files(config_dir: Path, project: Any) -> Iterator[Path]:
    """YAML files in the group folders of ``config_dir`` (not the primary configs beside it), at most
    ``_MAX_DEPTH`` folders deep and ``_MAX_FILES`` in all; hidden and ``__`` folders skipped."""
    seen = 0
    for folder, dirs, names in os.walk(config_dir):
        here = Path(folder)
        depth = len(here.relative_to(config_dir).parts)
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__"))) if depth < _MAX_DEPTH else []
        if here == config_dir:
            continue
        for name in sorted(names):
            if not name.endswith((".yaml", ".yml")):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return
            if project.may_read(here / name):
                yield here / name


def experiment_merges(project: Any) -> list[ExperimentMerge]:
    """Each experiment file of a Hydra app that merges a new ``_target_`` into a node with other keys."""
    cached = project.cache.get("hydra.experiment_merges")
    if cached is not None:
        return cached
    from preflight.adapters.hydra_apps import compose_with_origins, find_apps
    from preflight.adapters.hydra_compose import ComposeError, compose, relative
    from preflight.diagnostics import FileError
    from preflight.loaders import load_config
    from preflight.sources import read_source

    out: list[ExperimentMerge] = []
    seen: set[tuple[str, str]] = set()
    for app in find_apps(project):
        config_dir, name = app.config_dir, app.config_name
        if config_dir is None or name is None or not project.may_read(config_dir) or not config_dir.is_dir():
            continue
        try:
            plain = compose(config_dir, name, [], app.version_base, use_hydra=False)
        except (ComposeError, OSError, ValueError, RecursionError):
            continue
        used = {item.file.resolve() for item in plain.items if item.file is not None}
        for file in _global_files(config_dir, project):
            if file.resolve() in used:
                continue
            display = relative(file, Path(str(project.root)))
            source = read_source(file, display, "yaml")
            if isinstance(source, FileError):
                continue
            loaded = load_config(source)
            if isinstance(loaded, FileError) or loaded.header != "_global_" or not isinstance(loaded.data, dict):
                continue
            tokens = _group_overrides(loaded.data)
            if tokens is None:
                continue
            try:  # the config the experiment merges into: the defaults with its own group overrides
                base = compose(config_dir, name, tokens, app.version_base, use_hydra=False) if tokens else plain
            except (ComposeError, OSError, ValueError, RecursionError):
                continue
            composed = compose_with_origins(project, app, base)
            for path, mapping in _targets(loaded.data):
                node = _lookup(base.config, path)
                if not isinstance(node, dict):
                    continue
                old, new = node.get("_target_"), mapping["_target_"]
                stale = [str(k) for k in node if k not in mapping and k not in HYDRA_FLAGS]
                if not isinstance(old, str) or old == new or not stale or (display, ".".join(path)) in seen:
                    continue
                seen.add((display, ".".join(path)))
                origin = composed.origins.get(path)
                out.append(ExperimentMerge(display, loaded.line_of((*path, "_target_"), nearest=True), ".".join(path),
                                           old, new, stale, (origin[0], origin[1]) if origin else None))
    project.cache["hydra.experiment_merges"] = out
    return out
