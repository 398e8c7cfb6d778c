"""det108: PF150 (a checkpoint saved from ``W.module.state_dict()`` loaded non-strictly into the wrapper) and
PF151 (Hydra compose without the collected command-line overrides) run alone over the bug/fix/tricky-correct
variants of the bug sets whose text holds a gate of one of them (the det97_only_rules.py machinery with det108's
gates). A finding on a fix variant or a ``kind: correct`` case is a twin or tricky-correct program the rules flag.

    python bench/bugs/det108_only_rules.py WORK in-sample held-out held-out-2 ... held-out-41
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF150": lambda t, f: "strict=False" in t and ("DataParallel" in t or "DDP" in t),
    "PF151": lambda t, f: "compose" in t and "override" in t,
}
DET108 = ("PF150", "PF151")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET108)
