"""det105: PF423/PF514 (bfloat16-pretrained families, now with GPT-Neo and BLOOM), PF484 (a new token for
batched generation), PF130 and PF131 run alone over the bug/fix/tricky-correct variants of the bug sets whose
text holds a gate of one of them (the det97_only_rules.py machinery with det105's gates). A finding on a fix
variant or a ``kind: correct`` case is a twin or tricky-correct program the rules flag.

    python bench/bugs/det105_only_rules.py WORK in-sample held-out held-out-2 ... held-out-40
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

_BF16_FAMILY = re.compile(r"t5|ul2|gpt-neo-\d|bloom", re.I)
GATES = {
    "PF423": lambda t, f: _BF16_FAMILY.search(t) is not None and "fp16" in t,
    "PF514": lambda t, f: _BF16_FAMILY.search(t) is not None and ("fp16" in t or "16" in t),
    "PF484": lambda t, f: "add_special_tokens" in t or "add_tokens" in t,
    "PF130": lambda t, f: "torch_adam" in t,
    "PF131": lambda t, f: "preprocess_logits_for_metrics" in t,
}
DET105 = ("PF423", "PF514", "PF484", "PF130", "PF131")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET105)
