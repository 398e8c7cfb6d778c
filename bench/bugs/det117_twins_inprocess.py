"""det117: the in-process twins check (seconds, not the CLI audit's half hour): PF181 and PF440 run file by file
over every gated bug/fix/tricky-correct variant of every bug set, with det117's PF440 change and with it undone
(the ``lr_step_epochs`` reading switched off); prints findings on fix/correct variants and the new/gone ones.
Per file only: PF440's cross-module reach is the CLI check's (det117_only_rules.py).

    python bench/bugs/det117_twins_inprocess.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from det117_only_rules import GATES
from score import SETS, parse_cases

import preflight.rules.code.pf440_epoch_scheduler_stepped_per_batch as pf440
from preflight.diagnostics import FileError
from preflight.engine import Selection, analyse_parsed
from preflight.sources import SourceText, parse_python

Row = tuple[str, str, str, str, str, int]


def _findings(text: str, name: str) -> list:
    src = SourceText(path=Path(name), display=name, kind="python", raw=text.encode(), text=text)
    parsed = parse_python(src)
    if isinstance(parsed, FileError):
        return []
    return list(analyse_parsed(parsed, Selection(codes=("PF181", "PF440"))))


def sweep() -> tuple[int, list[Row]]:
    out: list[Row] = []
    n = 0
    for which, folders in SETS.items():
        if which == "all":
            continue
        for folder in folders:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        text = "\n".join(files.values()) + "\n" + case.launch
                        if not files or not any(gate(text, files) for gate in GATES.values()):
                            continue
                        n += 1
                        label = "correct" if case.kind == "correct" else variant
                        for name, body in files.items():
                            if name.endswith(".py"):
                                out += [(which, case.id, label, f.code, name, f.span.line)
                                        for f in _findings(body, name)]
    return n, out


if __name__ == "__main__":
    n, after = sweep()
    pf440._DECAY_STEP_IN_EPOCHS = re.compile(r"(?!x)x")  # det117's PF440 reading undone
    _, before = sweep()
    print("variants", n)
    for tag, rows in (("after", after), ("before", before)):
        print(tag, "findings", len(rows), "on fix/correct", [r for r in rows if r[2] != "bug"])
    print("new:", sorted(set(after) - set(before)))
    print("gone:", sorted(set(before) - set(after)))
