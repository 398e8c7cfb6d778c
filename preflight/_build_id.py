"""Which build of preflight is running, for cache keys: the version string alone does not say it
(two installs from the repository at different commits, an editable checkout being edited, all
report the same ``__version__``), so a cached result could outlive the rule that produced it.

The identity is a hash of the version and of every ``.py``/``.json`` file of the installed package
folders (``preflight`` and the ``preflight.adapters``/``hardware``/``architectures`` folders,
wherever ``package-dir`` put them): relative path, size and modification time, read once per
process with ``os.stat`` only (about a thousand files, milliseconds)."""

from __future__ import annotations

import importlib.util
import os
from typing import Iterable, Optional

_PACKAGES = ("preflight", "preflight.adapters", "preflight.hardware", "preflight.architectures")
_SUFFIXES = (".py", ".json")
_MEMO: dict[str, str] = {}


def _folders() -> list[str]:
    out: list[str] = []
    for name in _PACKAGES:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for folder in (spec.submodule_search_locations or []) if spec is not None else []:
            if folder not in out:
                out.append(folder)
    return out


def _stats(folders: Iterable[str]) -> Iterable[str]:
    for top in folders:
        for folder, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            for name in sorted(files):
                if not name.endswith(_SUFFIXES):
                    continue
                path = os.path.join(folder, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                yield f"{os.path.relpath(path, top)}:{st.st_size}:{st.st_mtime_ns}"


def build_id(folders: Optional[list[str]] = None) -> str:
    """A short hash that changes whenever a file of the running preflight changes."""
    from preflight import __version__
    from preflight._hash import blake2b

    memo_key = "\0".join(folders) if folders is not None else ""
    known = _MEMO.get(memo_key)
    if known is not None:
        return known
    text = "\n".join([__version__, *_stats(folders if folders is not None else _folders())])
    value = blake2b(text.encode(), digest_size=12).hexdigest()
    _MEMO[memo_key] = value
    return value
