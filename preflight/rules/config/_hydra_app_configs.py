"""Shared by the Hydra config rules (PF583, PF311, PF569, PF587): the YAML files of the config folders of the
job's Hydra apps."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from preflight.plan_rules import PlanContext
from preflight.sources import read_text_limited


def hydra_app_configs(pctx: PlanContext, needle: str = "defaults") -> list[Any]:
    """The YAML files of the config folders of the job's Hydra apps (bounded: 400 files)."""
    try:
        from preflight.adapters.hydra import compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return []
    from preflight.loaders import load_config_file
    from preflight.workspace import display_path

    out: list[Any] = []
    dirs = []
    for comp in compositions(pctx.project):
        config_dir = getattr(comp, "config_dir", None) or getattr(getattr(comp, "app", None), "config_dir", None)
        if config_dir is not None and config_dir not in dirs:
            dirs.append(config_dir)
    for config_dir in dirs:
        try:
            paths = sorted(Path(config_dir).rglob("*.yaml"))[:400]
        except OSError:
            continue
        for path in paths:
            if not pctx.project.may_read(path) or not os.path.isfile(path):
                continue
            try:
                if needle not in read_text_limited(path, errors="replace"):
                    continue
            except OSError:
                continue
            loaded = load_config_file(path, display_path(path, pctx.project.root), "yaml")
            if loaded is not None:
                out.append(loaded)
    return out
