"""det109: PF170 (a step-count schedule sized with ``len(dataset)``, the number of samples, while a DataLoader
batches that dataset) run alone over the bug/fix/tricky-correct variants of the bug sets whose text holds its gate
(the det97_only_rules.py machinery with det109's gate). A finding on a fix variant or a ``kind: correct`` case is a
twin or tricky-correct program the rule flags.

    python bench/bugs/det109_only_rules.py WORK in-sample held-out held-out-2 ... held-out-42
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

_SCHEDULES = ("OneCycleLR", "num_training_steps", "get_scheduler")
GATES = {
    "PF170": lambda t, f: "DataLoader" in t and "len(" in t and any(s in t for s in _SCHEDULES),
}
DET109 = ("PF170",)


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET109)
