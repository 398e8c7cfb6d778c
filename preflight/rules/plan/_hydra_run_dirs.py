"""The run and sweep directories a Hydra app's composed config sets, and the keys a value interpolates on
its way to a ``${hydra:...}`` resolver: shared by PF575, PF595, PF616, PF159 and PF160."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator, Optional

from preflight.loaders import LoadedConfig, load_config_file
from preflight.plan_rules import PlanContext

INTERP = re.compile(r"\$\{([^${}]+)\}")
ABSENT = object()


def lookup(config: Any, path: list[str]) -> Any:
    for part in path:
        if not isinstance(config, dict) or part not in config:
            return ABSENT
        config = config[part]
    return config


def references(text: str) -> Iterator[str]:
    """Absolute config keys a string interpolates (``${local.log_dir}``); resolvers (``${now:...}``),
    relative keys and Hydra's own node are left out."""
    for match in INTERP.finditer(text):
        body = match.group(1).strip()
        if ":" in body or body.startswith(".") or body == "hydra" or body.startswith("hydra.") or not body:
            continue
        yield body


def hydra_choice(primary: LoadedConfig) -> Optional[tuple[int, str]]:
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


def dirs(config: Optional[LoadedConfig], prefix: tuple, multirun: bool) -> list[tuple[tuple, str]]:
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

def run_dir_settings(pctx: PlanContext, primary: LoadedConfig, config_dir: Path,
                      multirun: bool) -> Optional[tuple[Optional[LoadedConfig], list[tuple[tuple, str]]]]:
    """The run (or sweep) directories the composed config sets, and the loaded config holding them:
    the primary config's own ``hydra:`` node, or the ``hydra/<choice>.yaml`` option its defaults
    list selects. None when both set one (which wins depends on ``_self_``'s place)."""
    from preflight.workspace import display_path

    choice = hydra_choice(primary)
    option = None
    if choice is not None:
        name = choice[1][:-5] if choice[1].endswith(".yaml") else choice[1]
        path = config_dir / "hydra" / f"{name}.yaml"
        if ".." not in name and not name.startswith("/") and pctx.project.may_read(path):
            option = load_config_file(path, display_path(path, pctx.project.root), "yaml")
    own = dirs(primary, ("hydra",), multirun)
    from_option = dirs(option, (), multirun)
    if own and from_option:
        return None
    return (primary if own else option), (own or from_option)


def composed_run_dirs(pctx: PlanContext, comp: Any) -> Optional[tuple[Optional[LoadedConfig], list[tuple[tuple, str]]]]:
    """:func:`run_dir_settings` of a composed ``@hydra.main`` app's primary config (single run);
    None when it has no primary config or config directory, or both places set a run dir."""
    config_dir = comp.config_dir or comp.app.config_dir
    primary = next((loaded for item, loaded in comp.item_configs if item.package == ""), None)
    if primary is None or config_dir is None:
        return None
    return run_dir_settings(pctx, primary, config_dir, False)


RESOLVER = re.compile(r"\$\{\s*hydra\s*:[^}]*\}")
DEPTH = 6


def chain(config: Any, value: str) -> Optional[list[str]]:
    """The keys from ``value`` to a string holding ``${hydra:...}`` (the last one holds it), or None."""
    todo: list[tuple[str, list[str]]] = [(value, [])]
    seen: set[str] = set()
    while todo:
        text, path = todo.pop(0)
        if len(path) > DEPTH:
            continue
        for ref in references(text):
            if ref in seen:
                continue
            seen.add(ref)
            found = lookup(config, ref.split("."))
            if found is ABSENT or not isinstance(found, str):
                continue
            if RESOLVER.search(found):
                return [*path, ref]
            todo.append((found, [*path, ref]))
    return None
