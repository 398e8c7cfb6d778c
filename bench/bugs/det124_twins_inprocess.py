"""det124: the in-process twins check (the det120 form, no gate): det124's rules PF188 (best-state-dict-kept-by-
reference), PF189 (layer-built-inside-forward), PF192 (parameter-moved-after-wrapping) and the changed PF180 (a dict
of named eval datasets) run file by file over every bug/fix/tricky-correct variant of every bug set; prints the
findings on fix/correct variants (a finding there is a newly flagged twin or tricky-correct program) and the bug
variants hit.

    python bench/bugs/det124_twins_inprocess.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import sweep

CODES = ("PF188", "PF189", "PF192", "PF180")


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
