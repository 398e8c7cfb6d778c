"""PF616 for SLURM job arrays: a batch script whose ``#SBATCH --array`` starts several tasks that each
run the Hydra app (hydra issue 2925, "Output directory creation is not atomic": runs started by the
scheduler in the same second got the same timestamped run folder).

The tasks of an array are independent jobs the scheduler may start at once; ``%N`` in the spec caps
how many run at a time (``--array=0-7%1`` runs them one after the other).
"""

from __future__ import annotations

import os
import re
import shlex
from typing import Optional

_ARRAY = re.compile(r"^\s*#SBATCH\s+(?:--array(?:=|\s+)|-a\s*)(\S+)")


def array_tasks(text: str) -> Optional[tuple[int, str]]:
    """(number of tasks at once, the spec as written) of the script's ``#SBATCH --array``; None when it
    has none, when the spec cannot be read, or when at most one task runs at a time."""
    for raw in text.splitlines():
        match = _ARRAY.match(raw)
        if not match:
            continue
        spec = match.group(1)
        body, _, throttle = spec.partition("%")
        total = 0
        for part in body.split(","):
            m = re.fullmatch(r"(\d+)(?:-(\d+)(?::(\d+))?)?", part.strip())
            if not m:
                return None
            low = int(m.group(1))
            high = int(m.group(2)) if m.group(2) else low
            step = int(m.group(3)) if m.group(3) else 1
            if high < low or step < 1:
                return None
            total += (high - low) // step + 1
        if throttle:
            if not throttle.isdigit():
                return None
            total = min(total, int(throttle))
        return (total, spec) if total > 1 else None
    return None


def array_starts(text: str, script: str) -> list[tuple[int, str, list[str]]]:
    """(line, command, tokens after the script) of each line of an array batch script that runs
    ``script`` (``srun python train.py seed=$SLURM_ARRAY_TASK_ID``, ``python train.py``)."""
    out: list[tuple[int, str, list[str]]] = []
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        start = number
        line = lines[number].strip()
        while line.endswith("\\") and number + 1 < len(lines):  # continuation lines
            number += 1
            line = line[:-1].rstrip() + " " + lines[number].strip()
        number += 1
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#") or script not in line:
            continue
        try:
            tokens = shlex.split(line.rstrip("&").strip())
        except ValueError:
            tokens = line.split()
        at = next((i for i, t in enumerate(tokens) if os.path.basename(t) == script), None)
        if at is not None and at > 0:
            out.append((start + 1, line, tokens[at + 1:]))
    return out
