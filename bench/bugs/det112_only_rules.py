"""det112: PF145 (a mask multiplied into a loss already reduced to one number), PF146 (``pos_weight`` given as
a number, not a tensor) and PF147 (a shuffling loader's predictions paired with its dataset's labels) run
alone over the bug/fix/tricky-correct variants of the bug sets whose text holds their gate (the det97_only_rules.py machinery with det112's gates). A finding on a fix variant or
a ``kind: correct`` case is a twin or tricky-correct program a rule flags.

    python bench/bugs/det112_only_rules.py WORK in-sample held-out held-out-2 ... held-out-42
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF145": lambda t, f: "mask" in t and ("Loss" in t or "F." in t),
    "PF146": lambda t, f: "pos_weight" in t,
    "PF147": lambda t, f: "shuffle" in t and "DataLoader" in t,
}
DET112 = ("PF145", "PF146", "PF147")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET112)
