"""det113: PF152 (tracker package missing on accelerate >= 0.11), PF153 (a custom_checkpoint* file written into
the save_state folder), PF154 (predict_with_generate on a label-free dataset), PF155 (packing=True with
eval_packing=False) and PF157 (a rank-sharded IterableDataset under the Trainer's dispatch) run alone over the
bug/fix/tricky-correct variants of the bug sets whose text holds their gates (the det97_only_rules.py machinery
with det113's gates). A finding on a fix variant or a ``kind: correct`` case is a twin or tricky-correct program
the rules flag.

    python bench/bugs/det113_only_rules.py WORK in-sample held-out held-out-2 ... held-out-42
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF152": lambda t, f: "log_with" in t,
    "PF153": lambda t, f: "custom_checkpoint" in t,
    "PF154": lambda t, f: "predict_with_generate" in t,
    "PF155": lambda t, f: "eval_packing" in t,
    "PF157": lambda t, f: "IterableDataset" in t and "train_dataset" in t,
}
DET113 = ("PF152", "PF153", "PF154", "PF155", "PF157")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET113)
