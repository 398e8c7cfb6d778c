"""det131: the twins check for the PF112 (eval-mode activation) and PF125 (hand-padded / dict batches) extensions
on the bug sets held-out-40..45 (all read-able for det131, so every figure is in-sample).

Both are file rules: every variant of the sets is run through them in process (twins_sweep). Prints the
findings on fix/tricky-correct variants (a finding there is a flagged twin) and the bug variants hit. Run it
with ``PYTHONPATH`` pointing at a checkout of the base commit to get the "before" rows.

    python bench/bugs/det131_twins_inprocess.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import sweep

SETS = ("held-out-40", "held-out-41", "held-out-42", "held-out-43", "held-out-44", "held-out-45")
CODES = ("PF112", "PF125")


def main() -> None:
    n, rows = sweep(CODES, sets=SETS)
    print("variants", n)
    for code in CODES:
        mine = sorted(r for r in rows if r[3] == code)
        print(f"{code}: bug-variant findings {len([r for r in mine if r[2] == 'bug'])}, "
              f"fix/correct findings {len([r for r in mine if r[2] != 'bug'])}")
        for r in mine:
            print("  ", *r)


if __name__ == "__main__":
    main()
