"""det111: PF190 (a ``${oc.env:VAR,???}`` value, the string "???" when VAR is unset) and PF191 (a
``hydra.job.env_set`` value interpolating a task-config key) run alone over the bug/fix/tricky-correct variants
of the bug sets whose text holds a gate of one of them (the det97_only_rules.py machinery with det111's gates).
A finding on a fix variant or a ``kind: correct`` case is a twin or tricky-correct program the rules flag.

    python bench/bugs/det111_only_rules.py WORK in-sample held-out held-out-2 ... held-out-42
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF190": lambda t, f: "???" in t and "env:" in t,
    "PF191": lambda t, f: "env_set" in t,
}
DET111 = ("PF190", "PF191")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET111)
