"""det100: PF397, PF398, PF399, PF619 and PF687 run alone over the bug/fix/tricky-correct variants of the
bug sets whose text holds a gate of one of them (only those can fire); each gated variant is written to
WORK/<set>/<case>/<variant>/ and audited as score.py audits it, with ``--select`` the gated codes (the
det97_only_rules.py machinery with det100's gates). A finding on a fix variant or a ``kind: correct`` case
is a twin or tricky-correct program the rules flag.

    python bench/bugs/det100_only_rules.py WORK in-sample held-out held-out-2 ... held-out-39
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF397": lambda t, f: "max_steps" in t and "gradient_accumulation_steps" in t,
    "PF398": lambda t, f: "CosineAnnealingLR" in t and "T_max" in t and "hydra" in t,
    "PF399": lambda t, f: "num_processes" in t and "accelerate" in t and re.search(r"accelerate\s*==", t) is not None,
    "PF619": lambda t, f: "deepspeed" in t and "#SBATCH" in t,
    "PF687": lambda t, f: re.search(r"visible_?dev|cuda_?vis", t, re.I) is not None,
}
DET100 = ("PF397", "PF398", "PF399", "PF619", "PF687")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET100)
