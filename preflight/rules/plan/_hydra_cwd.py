"""Shared by the rules on paths under Hydra's per-run directory (PF529, PF558): whether an app runs inside
it, what is a relative path."""

from __future__ import annotations

import re
from typing import Any

_VERSION = re.compile(r"^(\d+)\.(\d+)")


def changes_cwd(comp: Any) -> bool:
    """Whether Hydra runs this app inside its per-run output directory."""
    said = str(comp.cli.get(("hydra", "job", "chdir"), "")).lower()
    if said.endswith(("false", "true")):
        return said.endswith("true")
    for loaded in comp.files.values():  # the composer drops Hydra's own node: read it from the files
        data = getattr(loaded, "data", None)
        hydra = data.get("hydra") if isinstance(data, dict) else None
        job = hydra.get("job") if isinstance(hydra, dict) else None
        chdir = job.get("chdir") if isinstance(job, dict) else None
        if isinstance(chdir, bool):
            return chdir
    version = comp.app.version_base
    if not isinstance(version, str):
        return False  # version_base=None: the running Hydra's defaults (>= 1.2: no chdir)
    m = _VERSION.match(version.strip().strip("'\""))
    return m is not None and (int(m.group(1)), int(m.group(2))) < (1, 2)


def is_relative_path(value: Any) -> bool:
    if not isinstance(value, str) or not value.strip():
        return False
    v = value.strip()
    if v == "???" or "${" in v:
        return False  # a mandatory value, or one built from an interpolation
    return not (v.startswith(("/", "~", "$", "\\")) or "://" in v or re.match(r"^[A-Za-z]:[\\/]", v))
