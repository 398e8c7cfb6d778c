"""det141: the in-process twins sweep for PF1020 (completion-template-out-of-context, new). Every
bug/fix/tricky-correct variant of the bug sets named (held-out-40..47 when none is named; never a blind set) runs
through the rules, one Python file at a time.

A row on a fix/correct variant is a flagged twin or tricky-correct program (must be none); rows on bug variants
are the bug programs the rules reach.

    python bench/bugs/det141_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_sweep

from preflight.registry import all_rules

CODES = tuple(c for c in ("PF1020", "PF612", "PF1021") if c in all_rules(plugins=False))
DEFAULT_SETS = [f"held-out-{n}" for n in range(40, 48)]


def gate(text: str, _files: dict) -> bool:
    """The variants a rule could fire on."""
    return "DataCollatorForCompletionOnlyLM" in text or "get_peft_model" in text or "peft_config" in text \
        or "padding_side" in text


def main() -> None:
    print_sweep(CODES, gate, sys.argv[1:] or DEFAULT_SETS)


if __name__ == "__main__":
    main()
