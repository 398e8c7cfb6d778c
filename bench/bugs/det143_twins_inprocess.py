"""det143: the in-process twins sweep for PF294 (extended: a strict=False load of the wrapper's own checkpoint file
into a plain model). Every bug/fix/tricky-correct variant of every bug set named (default: all sets score.py knows)
runs through the rule, one Python file at a time.

A row on a fix/correct variant is a flagged twin or tricky-correct program (must be none); rows on bug variants
are the bug programs the rule reaches.

    python bench/bugs/det143_twins_inprocess.py [SET ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import print_sweep

CODES = ("PF294",)


def gate(text: str, _files: dict) -> bool:
    """The variants the rule could fire on."""
    return "DataParallel" in text or "DDP" in text


def main() -> None:
    print_sweep(CODES, gate, sys.argv[1:])


if __name__ == "__main__":
    main()
