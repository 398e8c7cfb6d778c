"""The job's launch scripts and the GPUs their comments name (PF268, PF689).

A launch script often says in a comment what it runs on (``# Colab runtime: NVIDIA T4 (16 GB)``,
``# two nodes, 4 x A100 each``). ``comment_gpus`` reads those comments: each mention of a GPU model the
hardware catalog knows, with the count written before it (``4 x A100``, ``8xH100``) and whether the
comment says the count is per node (``each``, ``per node``). Directive lines (``#SBATCH``, ``#PBS``,
``#$``) and the ``#!`` line are not comments here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight._record import dataclass
from preflight.plan_rules import PlanContext
from preflight.sources import read_text_limited

_SHELL_SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash")

# a GPU name as comments write it: an optional count ("4 x", "8x"), vendor words, then the model
_MENTION = re.compile(
    r"(?:(?P<count>\d{1,3})\s*[x\u00d7]\s*)?"
    r"(?:(?:NVIDIA|Nvidia|nvidia|Tesla|GeForce)\s+)*"
    r"(?P<model>(?:RTX|GTX)[ -]?\d{4}(?:[ -]?Ti)?|RTX[ -]A\d{4}|[ABHLPTV]\d{1,3}[GS]?|MI\d{3}X?)"
    r"s?(?![\w.])")
_PER_NODE = re.compile(r"\beach\b|\bper[ -](?:node|machine|host)\b|/node\b|\bevery (?:node|machine)\b")
_DIRECTIVE = ("#!", "#SBATCH", "#PBS", "#$", "#BSUB", "#FLUX")


@dataclass(frozen=True)
class CommentGpu:
    display: str  # the launch script, as shown to the user
    line: int
    text: str  # the comment line, stripped
    gpu: Any  # the catalog GPU
    count: Optional[int]  # the count written before the name ("4 x A100"), None without one
    per_node: bool  # the comment says the count is per node ("each", "per node")


def launch_scripts(pctx: PlanContext) -> list[tuple[str, Path]]:
    """(display path, path) of the job's launch script: the script the job was read from, else the shell
    scripts at the project's top that name one of its Python scripts."""
    root = pctx.project.root
    at = pctx.project.launch_at
    if at is not None:
        path = Path(at[0]) if Path(at[0]).is_absolute() else root / at[0]
        return [(at[0], path)]
    names = {Path(str(s.source.path)).name for s in pctx.scripts}
    out = []
    try:
        entries = sorted(os.listdir(root))
    except OSError:
        return []
    for entry in entries:
        path = root / entry
        if entry.endswith(_SHELL_SUFFIXES) and os.path.isfile(path) and pctx.project.may_read(path):
            out.append((entry, path))
    return [(d, p) for d, p in out if names and _names_any(p, names)]


def _names_any(path: Path, names: set[str]) -> bool:
    try:
        text = read_text_limited(path, errors="replace")
    except OSError:  # InputRefused is an OSError
        return False
    return any(n in text for n in names)


def comment_gpus(pctx: PlanContext) -> list[CommentGpu]:
    """Every GPU model the comment lines of the job's launch scripts name (catalog GPUs only)."""
    try:
        from preflight import hardware
    except ImportError:
        return []
    out = []
    for display, path in launch_scripts(pctx):
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:  # InputRefused is an OSError
            continue
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line.startswith("#") or line.startswith(_DIRECTIVE):
                continue
            per_node = _PER_NODE.search(line.lower()) is not None
            for m in _MENTION.finditer(line):
                if m.start() > 0 and (line[m.start() - 1].isalnum() or line[m.start() - 1] in "-_."):
                    continue
                gpu = hardware.find(m.group("model"))
                if gpu is None or not hasattr(gpu, "bf16"):
                    continue
                count = int(m.group("count")) if m.group("count") else None
                out.append(CommentGpu(display, number, line, gpu, count, per_node))
    return out
