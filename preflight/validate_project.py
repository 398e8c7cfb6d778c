"""The fields a config file's own project declares, for ``preflight validate`` on its own.

An HfArgumentParser / TrlParser file holds the keys of every dataclass the script hands the
parser: TrainingArguments and the project's own (LLaMA-Factory's ``FinetuningArguments`` has
``lora_rank``, open-r1's ``GRPOConfig`` subclass has ``hub_model_revision``). ``preflight audit``
knows the scripts; ``validate`` and ``check`` see only the config, so they read the ``@dataclass``
fields of the Python files of the project the config lives in (the nearest folder above it with
``pyproject.toml``, ``setup.py``, ``setup.cfg`` or ``.git``), with ``ast`` only: nothing is imported
or run. Bounded: at most :data:`MAX_FILES` files of at most 1 MiB each.
"""

from __future__ import annotations

import ast
import os
from functools import lru_cache
from pathlib import Path
from typing import Optional

MAX_FILES = 4000
MAX_BYTES = 1 << 20
_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_SKIP_DIRS = {"node_modules", "site-packages", "__pycache__", "build", "dist", "venv", ".venv"}


def project_root(path: Path) -> Optional[Path]:
    try:
        here = path.resolve().parent
    except OSError:
        return None
    for folder in (here, *here.parents):
        if any((folder / m).exists() for m in _MARKERS):
            return folder
    return None


def declared_fields(config_path: Path) -> frozenset[str]:
    """Field names of the ``@dataclass`` classes of the config's project (empty when it has none)."""
    root = project_root(config_path)
    return _fields_under(str(root)) if root is not None else frozenset()


@lru_cache(maxsize=8)
def _fields_under(root: str) -> frozenset[str]:
    from preflight.validate import dataclass_fields

    out: set[str] = set()
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            seen += 1
            if seen > MAX_FILES:
                return frozenset(out)
            path = os.path.join(folder, name)
            try:
                if os.path.getsize(path) > MAX_BYTES:
                    continue
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError:
                continue
            if "dataclass" not in text:
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            out |= dataclass_fields(tree)
    return frozenset(out)
