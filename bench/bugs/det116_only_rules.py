"""det116: PF172 (a step-interval ModelCheckpoint ranking a key logged only in validation hooks), PF173 (two
manual optimizer steps per batch under a literal ``max_steps``) and PF174 (``hydra.run.dir`` reading an
``oc.env`` variable the launch script never sets) run alone over the bug/fix/tricky-correct variants of the bug
sets whose text holds their gate (the det97_only_rules.py machinery with det116's gates). A finding on a fix
variant or a ``kind: correct`` case is a twin or tricky-correct program a rule flags.

    python bench/bugs/det116_only_rules.py WORK in-sample held-out held-out-2 ... held-out-42
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF172": lambda t, f: "every_n_train_steps" in t and "monitor" in t,
    "PF173": lambda t, f: "automatic_optimization" in t and "max_steps" in t,
    "PF174": lambda t, f: "oc.env" in t and any(n.endswith((".sh", ".slurm", ".sbatch", ".bash")) for n in f),
}
DET116 = ("PF172", "PF173", "PF174")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET116)
