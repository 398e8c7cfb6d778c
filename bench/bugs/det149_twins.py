"""det149: the twins sweep for the changed PF479 and PF397 and the new PF1190 (file rules) over the bug sets
held-out-40..48 (all read by earlier rounds: in-sample). A row on a fix/correct variant is a flagged twin or
tricky-correct program; a row on a bug variant is a catch.

    python bench/bugs/det149_twins.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_sweep

SETS = [f"held-out-{n}" for n in range(40, 49)]


def _ddp(text: str, files: dict) -> bool:
    return "DistributedDataParallel" in text or ".prepare(" in text


def _max_steps(text: str, files: dict) -> bool:
    return "max_steps" in text


if __name__ == "__main__":
    print_sweep(("PF479",), _ddp, SETS)
    print_sweep(("PF397",), _max_steps, SETS)
    print_sweep(("PF1190",), _ddp, SETS)
