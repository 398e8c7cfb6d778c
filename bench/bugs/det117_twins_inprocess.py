"""det117: the in-process twins check (seconds, not the CLI audit's half hour): PF181 and PF440 run file by file
over every gated bug/fix/tricky-correct variant of every bug set, with det117's PF440 change and with it undone
(the ``lr_step_epochs`` reading switched off); prints findings on fix/correct variants and the new/gone ones.
Per file only: PF440's cross-module reach is the CLI check's (det117_only_rules.py).

    python bench/bugs/det117_twins_inprocess.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from det117_only_rules import GATES
from twins_sweep import report_change, sweep

import preflight.rules.code.pf440_epoch_scheduler_stepped_per_batch as pf440


def _gate(text: str, files: dict) -> bool:
    return any(gate(text, files) for gate in GATES.values())


if __name__ == "__main__":
    n, after = sweep(("PF181", "PF440"), _gate)
    pf440._DECAY_STEP_IN_EPOCHS = re.compile(r"(?!x)x")  # det117's PF440 reading undone
    _, before = sweep(("PF181", "PF440"), _gate)
    report_change(n, after, before)
