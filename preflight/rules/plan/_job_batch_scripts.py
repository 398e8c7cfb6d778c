"""The job's shell scripts: the launch script the job was read from, else the shell scripts at the
project's top that name one of its Python scripts (shared by PF399, PF619 and PF687)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

from preflight.sources import read_text_limited

_SHELL_SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash", ".job", ".pbs")


def job_shell_scripts(pctx: Any) -> list[tuple[str, str]]:
    """(display path, text) of each shell script of the job."""
    root = pctx.project.root
    at = pctx.project.launch_at
    if at is not None:
        path = Path(at[0]) if Path(at[0]).is_absolute() else root / at[0]
        text = _read(path)
        return [(at[0], text)] if text is not None else []
    names = {Path(str(s.source.path)).name for s in pctx.scripts}
    if not names:
        return []
    try:
        entries = sorted(os.listdir(root))
    except OSError:
        return []
    out = []
    for entry in entries:
        path = root / entry
        if not entry.endswith(_SHELL_SUFFIXES) or not os.path.isfile(path) or not pctx.project.may_read(path):
            continue
        text = _read(path)
        if text is not None and any(n in text for n in names):
            out.append((entry, text))
    return out


def _read(path: Path) -> Optional[str]:
    try:
        return read_text_limited(path, errors="replace")
    except OSError:  # InputRefused is an OSError
        return None


def sbatch_gpus(display: str, text: str) -> Optional[tuple[int, int]]:
    """(GPUs per node, directive line) when the script's ``#SBATCH`` directives ask for GPUs."""
    if "#SBATCH" not in text:
        return None
    from preflight.gate.slurm import parse_sbatch

    request = parse_sbatch(text, display).gpus()
    option = request.option
    if request.per_node is None or option is None or option.origin != "directive" or option.line is None:
        return None
    return request.per_node, option.line
