"""det117: PF181 (an optimizer built before ``model.to(xla_device)``) and PF440 (an epoch-sized scheduler
stepped per batch; det117 reads ``lr_step_epochs`` as epochs) run alone over the bug/fix/tricky-correct variants
of the bug sets whose text holds their gate (the det97_only_rules.py machinery with det117's gates). A finding on a
fix variant or a ``kind: correct`` case is a twin or tricky-correct program a rule flags.

    python bench/bugs/det117_only_rules.py WORK in-sample held-out held-out-2 ... held-out-43
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF181": lambda t, f: "xla" in t and ".to(" in t,
    "PF440": lambda t, f: "lr_scheduler" in t and ".step()" in t,
}
DET117 = ("PF181", "PF440")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET117)
