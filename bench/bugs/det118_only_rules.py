"""det118: PF148 (frozen models loaded after ``Accelerator()`` under a ZeRO-3 ``zero3_init_flag`` config), PF329
(det118 adds tuples of per-rank counts) and PF385 (det118 adds DeepSpeed 0.8.1-0.10.0's BF16 optimizer under
ZeRO-1 CPU offload) run alone over the bug/fix/tricky-correct variants of the bug sets whose text holds their gate
(the det97_only_rules.py machinery with det118's gates). A finding on a fix variant or a ``kind: correct`` case is a
twin or tricky-correct program a rule flags. Run once on this branch and once with ``PYTHONPATH`` on a copy of
main (``git archive main``) and compare: det118_only_rules_{after,before}.txt.

    python bench/bugs/det118_only_rules.py WORK in-sample held-out held-out-2 ... held-out-43
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF148": lambda t, f: "zero3_init_flag" in t and "from_pretrained" in t and "requires_grad_" in t,
    "PF329": lambda t, f: "gather_for_metrics" in t,
    "PF385": lambda t, f: "grad_accum_dtype" in t and "offload" in t,
}
DET118 = ("PF148", "PF329", "PF385")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET118)
