"""The files of a project config validation looks at: its root (the folder holding a project
marker) and its files, bounded in count and size. Split from :mod:`preflight.validate_project`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator, Optional

from preflight.config_cache import note
from preflight.sources import read_text_limited

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
        note(str(folder))  # a marker created here later moves the root: a cached config result is stale
        if any((folder / m).exists() for m in _MARKERS):
            return folder
    return None


def project_files(root: str, suffixes: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """``(path, text)`` of the project's files ending in ``suffixes``, in sorted walk order, hidden
    and build folders skipped: at most :data:`MAX_FILES` such files, none over :data:`MAX_BYTES`,
    an unreadable one left out (every project scan of ``validate`` reads through here)."""
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(files):
            if not name.endswith(suffixes):
                continue
            seen += 1
            if seen > MAX_FILES:
                return
            path = os.path.join(folder, name)
            try:
                if os.path.getsize(path) > MAX_BYTES:
                    continue
                yield path, read_text_limited(path, MAX_BYTES, errors="replace")
            except OSError:
                continue
