"""det126: the in-process twins check (the det117 form, no gate): det126's new rules (PF247-PF251) run file by
file over every bug/fix/tricky-correct variant of every bug set except held-out-45 (blind) and "all" (which holds
it); prints the findings on fix/correct variants (a finding there is a newly flagged twin or tricky-correct
program) and the bug variants hit, per set.

    python bench/bugs/det126_twins_inprocess.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS
from twins_sweep import sweep

CODES = ("PF247", "PF248", "PF249", "PF250", "PF251")
BLIND = ("held-out-45", "all")


def main() -> None:
    sets = [s for s in SETS if s not in BLIND]
    n, rows = sweep(CODES, sets=sets)
    print("sets", len(sets), "variants", n)
    for code in CODES:
        mine = [r for r in rows if r[3] == code]
        print(f"{code}: bug-variant findings {len([r for r in mine if r[2] == 'bug'])}, "
              f"fix/correct findings {len([r for r in mine if r[2] != 'bug'])}")
        for r in mine:
            print("  ", *r)


if __name__ == "__main__":
    main()
