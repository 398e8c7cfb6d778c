"""det120: the in-process twins check (the det117 form, no gate): det120's new rules (PF176-PF179, PF182) and
the two it changed (PF201's message for hand-made shards, PF484's Llama 3.x special tokens, which only narrow it)
run file by file over every bug/fix/tricky-correct variant of every bug set; prints the findings on fix/correct
variants (a new rule's finding there is a newly flagged twin or tricky-correct program) and the bug variants hit.

    python bench/bugs/det120_twins_inprocess.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import sweep

CODES = ("PF176", "PF177", "PF178", "PF179", "PF182", "PF201", "PF484")


def main() -> None:
    n, rows = sweep(CODES)
    print("variants", n)
    for code in CODES:
        mine = [r for r in rows if r[3] == code]
        print(f"{code}: bug-variant findings {len([r for r in mine if r[2] == 'bug'])}, "
              f"fix/correct findings {len([r for r in mine if r[2] != 'bug'])}")
        for r in mine:
            print("  ", *r)


if __name__ == "__main__":
    main()
