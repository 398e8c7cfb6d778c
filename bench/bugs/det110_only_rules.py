"""det110: PF180 (``metric_for_best_model`` names a key ``compute_metrics`` never returns) runs alone over the
bug/fix/tricky-correct variants of the bug sets whose text holds its gate (the det97_only_rules.py machinery
with det110's gate). A finding on a fix variant or a ``kind: correct`` case is a twin or tricky-correct program
the rule flags.

    python bench/bugs/det110_only_rules.py WORK in-sample held-out held-out-2 ... held-out-42
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF180": lambda t, f: "metric_for_best_model" in t,
}
DET110 = ("PF180",)


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET110)
