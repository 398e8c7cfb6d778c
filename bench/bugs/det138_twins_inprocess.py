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

from score import SETS
from twins_sweep import sweep

CODES = ("PF100",)


def gate(text: str, _files: dict) -> bool:
    return "total_limit" in text


def main() -> None:
    sets = sys.argv[1:] or [s for s in SETS if s != "all"]
    n, rows = sweep(CODES, gate, sets)
    print(f"{'+'.join(CODES)} over {len(sets)} sets: variants read {n}, "
          f"bug-variant findings {len([r for r in rows if r[2] == 'bug'])}, "
          f"fix/correct findings {len([r for r in rows if r[2] != 'bug'])}")
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
