"""det139: the in-process twins sweep for PF119 (cosine-period-beyond-any-run, new), PF633 (extended to a
transform assigned to the random_split/Subset split itself) and PF379 (silent when only the evaluation split's
indices reach another dataset). Every bug/fix/tricky-correct variant of every bug set named (default: all sets
score.py knows) runs through the three rules, one Python file at a time.

A row on a fix/correct variant is a flagged twin or tricky-correct program (must be none); rows on bug variants
are the bug programs the rules reach. Run it from a checkout of main (base) and of det139 to compare.

    python bench/bugs/det139_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_sweep

from preflight.registry import all_rules

CODES = tuple(c for c in ("PF119", "PF633", "PF379") if c in all_rules(plugins=False))


def gate(text: str, _files: dict) -> bool:
    """The variants one of the three rules could fire on."""
    return "CosineAnnealingLR" in text or "random_split" in text or "Subset" in text or "sampler" in text


def main() -> None:
    print_sweep(CODES, gate, sys.argv[1:])


if __name__ == "__main__":
    main()
