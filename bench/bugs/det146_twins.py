"""det146: the twins sweep for the changed PF197 (file rule) and PF555 (plan rule) over the bug sets
held-out-40..48 (held-out-48 was read: in-sample there; the others were read by earlier rounds). A row on a
fix/correct variant is a flagged twin or tricky-correct program.

    python bench/bugs/det146_twins.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_plan_sweep, print_sweep

SETS = [f"held-out-{n}" for n in range(40, 49)]


def _pf197(text: str, files: dict) -> bool:
    return "load_checkpoint" in text


def _pf555(text: str, files: dict) -> bool:
    return "parse_args" in text and "hydra" in text


if __name__ == "__main__":
    print_sweep(("PF197",), _pf197, SETS)
    print_plan_sweep(("PF555",), _pf555, SETS)
