"""det140: the in-process twins sweep for PF1001 (parameter-loop-name-rebound, new), PF226 (extended to a
multi-device Trainer in the DataModule's own file), PF188 (extended to `best_model = model`) and PF1002
(monitored-train-metric-last-batch, new) and PF1003 (optimizer-left-on-deep-copied-model, new). Every
bug/fix/tricky-correct variant of every bug set named (default: all sets score.py knows) runs through the five
rules, one Python file at a time.

A row on a fix/correct variant is a flagged twin or tricky-correct program (must be none); rows on bug variants
are the bug programs the rules reach. PF1000 is a plan rule (it reads the Hydra configs): det140_delta.py scores it.

    python bench/bugs/det140_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_sweep

from preflight.registry import all_rules

CODES = tuple(c for c in ("PF1001", "PF1002", "PF1003", "PF226", "PF188") if c in all_rules(plugins=False))


def gate(text: str, _files: dict) -> bool:
    """The variants one of the five rules could fire on."""
    return "for " in text or "split" in text or "best" in text or "monitor" in text or "deepcopy" in text


def main() -> None:
    print_sweep(CODES, gate, sys.argv[1:])


if __name__ == "__main__":
    main()
