"""det120: the in-process twins check (the det117 form, no gate): det120's new rules (PF176-PF179, PF182) and
the two it changed (PF201's message for hand-made shards, PF484's Llama 3.x special tokens, which only narrow it)
run file by file over every bug/fix/tricky-correct variant of every bug set; prints the findings on fix/correct
variants (a new rule's finding there is a newly flagged twin or tricky-correct program) and the bug variants hit.

    python bench/bugs/det120_twins_inprocess.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases

from preflight.diagnostics import FileError
from preflight.engine import Selection, analyse_parsed
from preflight.sources import SourceText, parse_python

CODES = ("PF176", "PF177", "PF178", "PF179", "PF182", "PF201", "PF484")


def _findings(text: str, name: str) -> list:
    src = SourceText(path=Path(name), display=name, kind="python", raw=text.encode(), text=text)
    parsed = parse_python(src)
    if isinstance(parsed, FileError):
        return []
    return list(analyse_parsed(parsed, Selection(codes=CODES)))


def main() -> None:
    n = 0
    rows = []
    for which, folders in SETS.items():
        if which == "all":
            continue
        for folder in folders:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        n += 1
                        label = "correct" if case.kind == "correct" else variant
                        for name, body in files.items():
                            if name.endswith(".py"):
                                rows += [(which, case.id, label, f.code, name, f.span.line)
                                         for f in _findings(body, name)]
    print("variants", n)
    for code in CODES:
        mine = [r for r in rows if r[3] == code]
        print(f"{code}: bug-variant findings {len([r for r in mine if r[2] == 'bug'])}, "
              f"fix/correct findings {len([r for r in mine if r[2] != 'bug'])}")
        for r in mine:
            print("  ", *r)


if __name__ == "__main__":
    main()
