"""det142: the in-process twins sweep for PF1040 (visible-devices-set-after-cuda-init, new). Every
bug/fix/tricky-correct variant of every bug set named (default: all sets score.py knows) that sets
CUDA_VISIBLE_DEVICES runs through the rule, one Python file at a time.

A row on a fix/correct variant is a flagged twin or tricky-correct program (must be none); rows on bug variants
are the bug programs the rule reaches.

    python bench/bugs/det142_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_sweep

from preflight.registry import all_rules

CODES = tuple(c for c in ("PF1040",) if c in all_rules(plugins=False))


def gate(text: str, _files: dict) -> bool:
    """The variants the rule could fire on."""
    return "CUDA_VISIBLE_DEVICES" in text


def main() -> None:
    print_sweep(CODES, gate, sys.argv[1:])


if __name__ == "__main__":
    main()
