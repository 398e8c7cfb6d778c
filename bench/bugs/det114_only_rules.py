"""det114: PF435 (plateau scheduler bound to ``self.attr``), PF568 (unpinned / capped Lightning requirements, the
1.8 removal of ``on_epoch_start``/``on_epoch_end``), PF158 (a Hydra override key starting with a digit), PF159
(a multirun sweep folder reaching ``${hydra:...}``) and PF160 (a Compose-API config read at a ``${hydra:...}``
key) and PF161 (parameter-group dicts stored in a LazyConfig) run alone over the bug/fix/tricky-correct variants of the bug sets whose text holds their gate (the
det97_only_rules.py machinery with det114's gates). A finding on a fix variant or a ``kind: correct`` case is a
twin or tricky-correct program a rule flags.

    python bench/bugs/det114_only_rules.py WORK in-sample held-out held-out-2 ... held-out-43
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GATES = {
    "PF435": lambda t, f: "ReduceLROnPlateau" in t and "self." in t and "configure_optimizers" in t,
    "PF568": lambda t, f: "_epoch_" in t and "LightningModule" in t and "lightning" in "".join(
        v for k, v in f.items() if Path(k).name.startswith(("requirement", "pyproject", "setup", "environment"))),
    "PF158": lambda t, f: "hydra" in t and _digit_override(t),
    "PF159": lambda t, f: "${hydra:" in t and "sweep" in t,
    "PF160": lambda t, f: "compose" in t and "initialize" in t and "${hydra:" in t,
    "PF161": lambda t, f: "LazyConfig" in t and ".params" in t,
}


def _digit_override(text: str) -> bool:
    """A token of the text (launch lines, shell scripts) that PF158's key test would take."""
    from preflight.adapters.hydra_failures import digit_key_segment

    return any(digit_key_segment(tok) is not None for tok in re.split(r"\s+", text) if "=" in tok or
               tok.startswith(("~", "'~")))


DET114 = ("PF435", "PF568", "PF158", "PF159", "PF160", "PF161")


if __name__ == "__main__":
    from det97_only_rules import main

    main(GATES, DET114)
