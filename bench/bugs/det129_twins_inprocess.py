"""det129: the in-process twins check for PF694 (the ``@hydra.main`` function reads a key the composed config lacks)
and the extended PF172 (a step-interval ModelCheckpoint monitoring a validation-named key, module not in view).
Every bug/fix/tricky-correct variant whose text could make them fire (``hydra`` for PF694,
``every_n_train_steps`` for PF172) is written to a temporary project and its plan built as ``audit`` builds it
(every Python file a script, every config a config); the launch line is the last command of the variant's shell
script that runs a ``.py`` file (continuation lines joined), else the case's ``launch:`` line. Prints the findings
on fix/correct variants (each would be a newly flagged twin or tricky-correct program) and the bug variants hit.
Run it on this branch and on its base (PYTHONPATH=<base checkout>) to compare.

    python bench/bugs/det129_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_plan_sweep

CODES = ("PF694", "PF172")


def _gate(text: str, _files: dict) -> bool:
    return "hydra" in text or "every_n_train_steps" in text


def main() -> None:
    print_plan_sweep(CODES, _gate, sys.argv[1:] or None, prefix="det129-")


if __name__ == "__main__":
    main()
