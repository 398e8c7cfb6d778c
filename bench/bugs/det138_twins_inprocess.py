"""det138: the in-process twins sweep for PF100 (accelerate-total-limit-without-automatic-naming). Every
bug/fix/tricky-correct variant of every bug set named (default: all sets score.py knows) that mentions
``total_limit`` runs through the rule, one Python file at a time. A row on a fix/correct variant is a flagged
twin or tricky-correct program (must be none); rows on bug variants are the bug programs the rule reaches.
PF100 is new, so the base has no rows at all.

    python bench/bugs/det138_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_sweep

CODES = ("PF100",)


def gate(text: str, _files: dict) -> bool:
    return "total_limit" in text


def main() -> None:
    print_sweep(CODES, gate, sys.argv[1:])


if __name__ == "__main__":
    main()
