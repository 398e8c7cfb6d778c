"""det150: PF1210 (a TRL preference trainer's prompt/generation budget >= max_length) and PF1211 (GRPO
generation batch not a multiple of num_generations) run alone, as plan rules, over the bug/fix/tricky-correct
variants of bug sets held-out-40..48 whose text holds their gate (bench/bugs/twins_sweep.py's print_plan_sweep).
A finding on a fix variant or a ``kind: correct`` case is a twin or tricky-correct program a rule flags.
In-sample: these sets were read by earlier branches.

    python bench/bugs/det150_twins.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_plan_sweep

SETS = [f"held-out-{n}" for n in range(40, 49)]
CODES = ("PF1210", "PF1211")


def gate(text: str, files: dict) -> bool:
    return "trl" in text and any(k in text for k in ("max_prompt_length", "max_new_tokens", "num_generations",
                                                      "GRPOConfig"))


if __name__ == "__main__":
    print_plan_sweep(CODES, gate, SETS, prefix="det150-")
    print_plan_sweep(CODES, None, SETS, prefix="det150-all-")
