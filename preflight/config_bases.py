"""The ``_base_`` files a YAML config inherits, read as configs of the job.

A YAML config whose top level says ``_base_: 'default.yml'`` (or a list of files) is the base file's keys
with its own over them. MMCV's and MMEngine's ``Config.fromfile`` read YAML ``_base_`` that way, and
projects in that style write the same merge themselves (NVlabs/GroupViT @ 13b7861
``configs/group_vit_gcc_yfcc_30e.yml:1`` ``_base_: 'default.yml'``, merged by ``utils/config.py:17-24``
``if '_base_' in cfg: ... OmegaConf.merge(base_cfg, cfg)``: ``data.batch_size: 256``, ``num_workers``,
``pin_memory``, ``img_aug.img_size`` and ``train.amp_opt_level`` live in ``configs/default.yml`` only).

The key is honoured only where the job's code says so: an audited script or a project module it imports
(two levels) names ``_base_`` or calls ``Config.fromfile``; a plain ``yaml.safe_load`` of the file leaves
``_base_`` an inert key. ``_BASE_`` (the same merge in upper case, ``if '_BASE_' in cfg:``) likewise where
the code names that key. Each base file (resolved beside the file that names it, as MMCV does; bases of
bases too, three levels) is added before the config that names it, less every key that config (or a
later base) sets, so each key the job reads is the one of the file that wins, at its own ``file:line``;
a mapping marked ``_delete_: true`` (MMCV) drops the base's whole section. A base that is not found,
not readable or not YAML is named in a note and skipped. Read, never executed.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any, Callable, Optional

from preflight.loaders import LoadedConfig

_LEVELS = 3  # bases of bases
_MAX_FILES = 24  # project modules searched for the merge code
_SUFFIXES = (".yaml", ".yml")
_KEYS = ("_base_", "_BASE_")


def base_key(loaded: LoadedConfig) -> Optional[str]:
    """``_base_`` or ``_BASE_``, the inheritance key a YAML config's top level holds, else None."""
    if loaded.kind != "yaml" or not isinstance(loaded.data, dict):
        return None
    return next((key for key in _KEYS if key in loaded.data), None)


def base_names(loaded: LoadedConfig) -> list[str]:
    """The files a YAML config's top-level ``_base_`` names (a string or a list of strings), else []."""
    key = base_key(loaded)
    if key is None:
        return []
    named = loaded.data.get(key)
    if isinstance(named, str):
        return [named]
    if isinstance(named, list) and named and all(isinstance(n, str) for n in named):
        return list(named)
    return []


def code_honours_base(scripts: list[Any], key: str = "_base_") -> bool:
    """Whether an audited script, or a project module it imports (two levels), names ``key`` (``_base_``,
    ``_BASE_``) or, for ``_base_``, calls ``Config.fromfile`` (whose YAML reading honours it)."""
    from preflight.adapters.module_params_imports import imported_files
    from preflight.local_trees import parse_project_file

    def says(tree: ast.AST) -> bool:
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value == key:
                return True
            if key == "_base_" and isinstance(node, ast.Attribute) and node.attr == "fromfile" \
                    and isinstance(node.value, (ast.Name, ast.Attribute)) \
                    and (node.value.id if isinstance(node.value, ast.Name) else node.value.attr) == "Config":
                return True
        return False

    seen: set[Path] = set()
    level: list[tuple[Path, ast.Module]] = []
    for script in scripts:
        if says(script.tree):
            return True
        level.append((Path(str(script.source.path)), script.tree))
    for _ in range(2):
        following: list[tuple[Path, ast.Module]] = []
        for path, tree in level:
            for file in imported_files(path, tree):
                if file in seen or len(seen) >= _MAX_FILES:
                    continue
                seen.add(file)
                parsed = parse_project_file(file, 500_000)
                if parsed is None:
                    continue
                if says(parsed):
                    return True
                following.append((file, parsed))
        level = following
    return False


def _prune(base: Any, over: Any) -> Any:
    """``base`` less every key ``over`` sets (mappings merged key by key, anything else replaced)."""
    if not isinstance(base, dict) or not isinstance(over, dict):
        return None
    if over.get("_delete_") is True:
        return None
    out: dict = {}
    for key, value in base.items():
        if key in _KEYS:
            continue
        if key not in over:
            out[key] = value
            continue
        kept = _prune(value, over[key])
        if kept:
            out[key] = kept
    return out


def _merged(first: dict, then: dict) -> dict:
    out = copy.deepcopy(first)
    for key, value in then.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def inherited(path: Path, loaded: LoadedConfig, read: Callable[[Path], Optional[tuple[Any, LoadedConfig]]],
              notes: list[str]) -> list[tuple[Any, LoadedConfig]]:
    """The base files of the YAML config ``loaded`` (at ``path``), in merge order, each pruned of what
    overrides it; ``read(path)`` gives (source, loaded) or None (not readable, already read)."""
    out: list[tuple[Any, LoadedConfig]] = []

    def visit(at: Path, cfg: LoadedConfig, over: dict, depth: int) -> None:
        names = base_names(cfg)
        if not names or depth > _LEVELS:
            return
        key = base_key(cfg)
        got: list[tuple[Any, LoadedConfig, Path]] = []
        for name in names:
            cand = at.parent / name
            if Path(name).suffix.lower() not in _SUFFIXES or not cand.is_file():
                notes.append(f"{cfg.path}: {key} {name} not found beside it (or not YAML); not read")
                continue
            pair = read(cand)
            if pair is None:
                continue
            got.append((pair[0], pair[1], cand))
        # a later base overrides an earlier one, and the config naming them overrides all
        for k, (source, base, cand) in enumerate(got):
            later: dict = {}
            for _, other, _ in got[k + 1:]:
                if isinstance(other.data, dict):
                    later = _merged(later, other.data)
            wins = _merged(later, over)
            visit(cand, base, _merged(base.data if isinstance(base.data, dict) else {}, wins), depth + 1)
            kept = _prune(base.data, wins)
            pruned = LoadedConfig(path=base.path, kind=base.kind, data=kept or {}, lines=dict(base.lines),
                                  notes=list(base.notes), header=base.header)
            out.append((source, pruned))
            notes.append(f"read {base.path}: the {key} of {cfg.path} (its keys under those {cfg.path} sets)")

    visit(path, loaded, loaded.data if isinstance(loaded.data, dict) else {}, 1)
    return out
