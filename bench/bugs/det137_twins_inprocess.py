"""det137: the in-process twins sweep for the two new rules, PF695 (step-schedule-sized-to-one-epoch) and PF696
(softmax-over-the-batch-dimension), and for PF125 (padded-targets-in-cross-entropy, extended to a collate that
returns the padded batch alone). Every bug/fix/tricky-correct variant of every bug set named (default: all sets
score.py knows, held-out-1..46 and in-sample) runs through the two rules, one Python file at a time.

A row on a fix/correct variant is a flagged twin or tricky-correct program (must be none); rows on bug variants
are the bug programs the rules reach. PF695/PF696 are new, so without them they have no rows at all; PF125's rows
are compared with the rule as it was at the branch point (51267332) by running the same sweep there.

    python bench/bugs/det137_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_sweep

CODES = ("PF695", "PF696", "PF125")


def gate(text: str, _files: dict) -> bool:
    """The variants one of the three rules could fire on."""
    return "softmax" in text.lower() or "len(" in text or "collate_fn" in text


def main() -> None:
    print_sweep(CODES, gate, sys.argv[1:])


if __name__ == "__main__":
    main()
