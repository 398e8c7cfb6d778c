"""det121: PF183 (a constant/plateau schedule given a warmup) and PF184 (``warmup_steps`` not below
``max_steps``) run alone over the bug/fix/tricky-correct variants of the bug sets whose text holds their gate
(the det97_only_rules.py machinery with det121's gates). A finding on a fix variant or a ``kind: correct`` case
is a twin or tricky-correct program a rule flags.

    python bench/bugs/det121_only_rules.py WORK in-sample held-out held-out-2 ... held-out-43
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF183": lambda t, f: "constant" in t and "warmup" in t,
    "PF184": lambda t, f: "max_steps" in t and "warmup_steps" in t,
}
DET121 = ("PF183", "PF184")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET121)
