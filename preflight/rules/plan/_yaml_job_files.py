"""The YAML files a plan rule reads values from (PF286): the job's configs, the files each Hydra
composition loaded, and the YAML files under the project root whose text matches a pattern (a
config a script opens itself is often not given as a config)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from preflight.plan_rules import PlanContext

_SKIP_DIRS = frozenset({"node_modules", "venv", "env", "site-packages", "__pycache__", "outputs", "wandb", "logs"})
MAX_FILES = 400


def yaml_files(pctx: PlanContext, needle: re.Pattern[str]) -> list[tuple[str, Any]]:
    """(text, loaded config) of every YAML file of the job whose text matches ``needle``."""
    from preflight.rules.plan._hydra_app_support import config_files
    from preflight.sources import read_text_limited

    root = pctx.project.root
    out: list[tuple[str, Any]] = []
    seen: set[str] = set()
    known = {os.path.abspath(src.path): src.text for src, _ in pctx.project.configs}
    for cfg in config_files(pctx).values():
        path = os.path.abspath(os.path.join(root, cfg.path))
        if cfg.kind != "yaml" or path in seen:
            continue
        seen.add(path)
        text = known.get(path)
        if text is None:
            try:
                text = read_text_limited(Path(path), errors="replace")
            except OSError:
                continue
        if needle.search(text):
            out.append((text, cfg))
    out.extend(walk_yaml(pctx, needle, seen))
    return out


def walk_yaml(pctx: PlanContext, needle: re.Pattern[str], seen: set[str]) -> list[tuple[str, Any]]:
    """(text, loaded config) of the YAML files under the project root (at most five folders deep, the
    first 400 files in sorted order) whose text matches ``needle``, other than the paths in ``seen``
    (absolute; extended with each file read)."""
    from preflight.loaders import LoadedConfig, load_config_text
    from preflight.sources import read_text_limited
    from preflight.workspace import display_path

    root = pctx.project.root
    out: list[tuple[str, Any]] = []
    budget = MAX_FILES
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        if os.path.relpath(folder, root).count(os.sep) >= 5:
            dirs[:] = []
        for name in sorted(names):
            if not name.endswith((".yaml", ".yml")):
                continue
            budget -= 1
            if budget < 0:
                return out
            path = os.path.abspath(os.path.join(folder, name))
            if path in seen or not pctx.project.may_read(Path(path)):
                continue
            seen.add(path)
            try:
                text = read_text_limited(Path(path), errors="replace")
            except OSError:  # InputRefused is an OSError
                continue
            if not needle.search(text):
                continue
            loaded = load_config_text(text, "yaml", display_path(Path(path), root))
            if isinstance(loaded, LoadedConfig):
                out.append((text, loaded))
    return out
