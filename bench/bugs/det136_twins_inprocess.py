"""det136: the in-process twins check for the rules det136 added or extended: PF185 (submitit requeue without
resume), PF186 (interpolation key not composed), PF216 (resolver as a defaults entry), PF507 and PF595 (partial
compositions), PF543 (monitored key logged only under a config condition), PF626 (log_every_n_steps beyond the epoch).
Every bug/fix/tricky-correct variant whose text could make them fire (``hydra``, ``monitor`` or ``log_every_n_steps``)
is written to a temporary project and its plan built as ``audit`` builds it (every Python file a script, every config a
config); the launch line is the last command of the variant's shell script that runs a ``.py`` file (continuation
lines joined), else the case's ``launch:`` line. Prints the findings on fix/correct variants (each would be a newly
flagged twin or tricky-correct program) and the bug variants hit. Run it on this branch and on its base
(PYTHONPATH=<base checkout>) to compare.

    python bench/bugs/det136_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_plan_sweep

CODES = ("PF185", "PF186", "PF216", "PF507", "PF543", "PF595", "PF626")


def _gate(text: str, _files: dict) -> bool:
    return "hydra" in text or "monitor" in text or "log_every_n_steps" in text


def main() -> None:
    print_plan_sweep(CODES, _gate, sys.argv[1:] or None, prefix="det136-")


if __name__ == "__main__":
    main()
