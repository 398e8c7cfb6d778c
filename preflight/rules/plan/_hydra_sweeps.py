"""Shared by the rules on Hydra sweeps (PF548, PF556, PF558, PF559, PF572, PF588): the options a defaults
list chooses, the job's YAML configs, sweep arguments, the Optuna sweeper."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Iterator

from preflight.loaders import LoadedConfig, load_config_text
from preflight.plan_rules import PlanContext
from preflight.sources import read_text_limited

_MAX_FILES = 200


def yaml_configs(pctx: PlanContext) -> Iterator[LoadedConfig]:
    for cfg in pctx.configs:
        if cfg.kind == "yaml":
            yield cfg
    for directory in pctx.project.config_dirs:
        count = 0
        for dirpath, dirnames, filenames in os.walk(directory):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith((".yaml", ".yml")) or count >= _MAX_FILES:
                    continue
                count += 1
                path = Path(dirpath) / name
                try:
                    text = read_text_limited(path, errors="replace")
                except (OSError, ValueError):
                    continue
                try:
                    display = os.path.relpath(path, pctx.project.root)
                except ValueError:
                    display = str(path)
                loaded = load_config_text(text, "yaml", display)
                if isinstance(loaded, LoadedConfig):
                    yield loaded


def group_choices(defaults: Any, group: str) -> list[str]:
    """The options chosen for a Hydra group in a defaults list (``override hydra/launcher: joblib``)."""
    out: list[str] = []
    for entry in defaults if isinstance(defaults, list) else ():
        if isinstance(entry, dict):
            for key, value in entry.items():
                name = str(key).split()[-1] if isinstance(key, str) else ""
                if name.lstrip("/") == group and isinstance(value, str):
                    out.append(value)
    return out


def is_sweep(args: list[str]) -> bool:
    return any("=" in tok and not tok.startswith("-") and ("," in tok.split("=", 1)[1] or "range(" in tok
                                                           or "choice(" in tok) for tok in args)


def selects_optuna(defaults: Any) -> bool:
    if not isinstance(defaults, list):
        return False
    for entry in defaults:
        items = entry.items() if isinstance(entry, dict) else []
        for key, value in items:
            if isinstance(key, str) and re.sub(r"^override\s+", "", key).strip().lstrip("/") == "hydra/sweeper" \
                    and isinstance(value, str) and "optuna" in value:
                return True
    return False
