"""det109: PF170 (a step-count schedule sized with ``len(dataset)``, the number of samples, while a DataLoader
batches that dataset) and PF171 (``trainer.test(ckpt_path="best")`` on a Trainer that never runs ``fit``) run
alone over the bug/fix/tricky-correct variants of the bug sets whose text holds a gate of one of them (the
det97_only_rules.py machinery with det109's gates). A finding on a fix variant or a ``kind: correct`` case is a
twin or tricky-correct program the rules flag.

    python bench/bugs/det109_only_rules.py WORK [--codes PF170] in-sample held-out held-out-2 ... held-out-42
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

_SCHEDULES = ("OneCycleLR", "num_training_steps", "get_scheduler")
GATES = {
    "PF170": lambda t, f: "DataLoader" in t and "len(" in t and any(s in t for s in _SCHEDULES),
    "PF171": lambda t, f: "ckpt_path" in t and "best" in t,
}
DET109 = ("PF170", "PF171")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET109)
