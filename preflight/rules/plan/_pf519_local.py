"""PF519 when the app's full composition fails: each group config's own defaults list, composed locally.

A job audited with part of its config tree (the primary's defaults list names an option file that is
not there, so Hydra and preflight stop with ``MissingConfigException``) still has group configs whose
defaults list is complete: ``callbacks/default.yaml`` listing ``_self_`` before ``model_checkpoint``
and ``early_stopping`` (lightning-hydra-template issue 544). Their ordering problem is local to the
file: it merges its own body at ``_self_`` and each listed option of its directory after it, so a key
the file sets and a later option sets to another value ends with the option's value. Only options of
the file's own directory or below (``model_checkpoint``, ``sub/option``) without a ``# @package``
header are compared (their package is the file's, extended by the sub-path); a key a later entry sets
back to the file's value, the launch line's group selections and overrides, and ``???`` values are not
reported.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator, Optional

from preflight.rules.plan._hydra_tree import config_leaves

_MISSING = "???"
_MAX_FILES = 400


def _config_files(config_dir: Path) -> list[Path]:
    out: list[Path] = []
    for base, dirs, files in os.walk(config_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith((".yaml", ".yml")):
                out.append(Path(base) / name)
                if len(out) >= _MAX_FILES:
                    return out
    return out


def _option_file(group_dir: Path, name: str) -> Optional[Path]:
    for ext in ("", ".yaml", ".yml"):
        path = group_dir / f"{name}{ext}" if ext else group_dir / name
        if path.suffix in (".yaml", ".yml") and path.is_file():
            return path
    return None


def _children(entries: list[Any], self_at: int) -> Iterator[tuple[int, str]]:
    """(index, relative option path) of the plain entries after ``_self_`` naming an option of the
    file's own directory (``model_checkpoint``, ``- sub: opt``); absolute, relocated, override and
    optional entries are left to the composed check."""
    for index, entry in enumerate(entries):
        if index <= self_at:
            continue
        if isinstance(entry, str) and entry != "_self_":
            name = entry.strip()
            if name and not name.startswith("/") and "@" not in name and " " not in name:
                yield index, name
        elif isinstance(entry, dict) and len(entry) == 1:
            (key, option), = entry.items()
            key = str(key)
            if isinstance(option, str) and key and not key.startswith("/") and "@" not in key and " " not in key:
                yield index, f"{key}/{option}"


def local_lost(config_dir: Path, selected: set[str], cli_keys: set[tuple[str, ...]], read_config_file: Any,
               error: Any) -> Iterator[tuple[Path, int, list[tuple[tuple[str, ...], Any, Path, tuple[str, ...], Any]]]]:
    """(file, index of its ``_self_``, [(own key, own value, option file, option key, option value)])
    for each group config whose own values a later entry of its defaults list overrides."""
    for path in _config_files(config_dir):
        rel = path.relative_to(config_dir)
        if len(rel.parts) < 2:
            continue  # a primary config: composed with the launch line, left to the composed check
        group = "/".join(rel.parts[:-1])
        if group in selected or (group.split("/")[0] in selected):
            continue
        try:
            cfg = read_config_file(path)
        except error:
            continue
        entries = list(cfg.defaults)
        if "_self_" not in entries or (cfg.header or "").strip() not in ("", "_group_"):
            continue
        self_at = entries.index("_self_")
        mine = dict(config_leaves(cfg.body, ()))
        if not mine:
            continue
        final: dict[tuple[str, ...], tuple[Any, Optional[tuple[Path, tuple[str, ...]]]]] = {
            k: (v, None) for k, v in mine.items()}
        for _index, option in _children(entries, self_at):
            child = _option_file(path.parent, option)
            if child is None:
                continue
            try:
                child_cfg = read_config_file(child)
            except error:
                continue
            if (child_cfg.header or "").strip() not in ("", "_group_"):
                continue  # a relocated or _global_ overlay
            prefix = tuple(option.split("/")[:-1])
            for key, value in config_leaves(child_cfg.body, ()):
                full = (*prefix, *key)
                if full in mine and value != _MISSING:
                    final[full] = (value, (child, key))
        lost = []
        for key, own in mine.items():
            value, where = final[key]
            if where is None or value == own or own == _MISSING:
                continue
            pkg_key = (*group.split("/"), *key)
            if pkg_key in cli_keys or tuple(".".join(pkg_key).split(".")) in cli_keys:
                continue
            lost.append((key, own, where[0], where[1], value))
        if lost:
            yield path, self_at, lost
