"""The in-process twins sweep the detN_twins_inprocess scripts share: every bug/fix/tricky-correct variant of
every bug set (or of the sets named), each Python file parsed once and run through the selected rules.

A row is (set, case id, label, code, file, line); the label is the variant ("bug", "fix") or "correct" for a
tricky-correct program, so rows whose label is not "bug" are findings on programs that must stay silent.
``gate(text, files)`` skips the variants whose joined text (files + launch line) a rule could not fire on.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases

from preflight.diagnostics import FileError
from preflight.engine import Selection, analyse_parsed
from preflight.sources import ParsedPython, SourceText, parse_python

Row = tuple[str, str, str, str, str, int]
Gate = Callable[[str, dict], bool]


def parsed(text: str, name: str) -> Optional[ParsedPython]:
    """``text`` parsed as the file ``name``; None when it does not parse (the case's own problem)."""
    src = SourceText(path=Path(name), display=name, kind="python", raw=text.encode(), text=text)
    out = parse_python(src)
    return None if isinstance(out, FileError) else out


def findings(text: str, name: str, codes: Iterable[str]) -> list:
    """The findings of the rules ``codes`` on one file."""
    tree = parsed(text, name)
    return [] if tree is None else list(analyse_parsed(tree, Selection(codes=tuple(codes))))


def variants(sets: Optional[Iterable[str]] = None,
             gate: Optional[Gate] = None) -> Iterator[tuple[str, str, str, dict]]:
    """(set, case id, label, files) for each variant with files that ``gate`` lets through."""
    for which in (sets if sets is not None else [s for s in SETS if s != "all"]):
        for folder in SETS[which]:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        if not files or (gate is not None
                                         and not gate("\n".join(files.values()) + "\n" + case.launch, files)):
                            continue
                        yield which, case.id, "correct" if case.kind == "correct" else variant, files


def sweep(codes: Iterable[str], gate: Optional[Gate] = None,
          sets: Optional[Iterable[str]] = None) -> tuple[int, list[Row]]:
    """(variants read, rows): the findings of ``codes`` on every variant ``gate`` lets through."""
    codes = tuple(codes)
    n = 0
    rows: list[Row] = []
    for which, case_id, label, files in variants(sets, gate):
        n += 1
        for name, body in files.items():
            if name.endswith(".py"):
                rows += [(which, case_id, label, f.code, name, f.span.line) for f in findings(body, name, codes)]
    return n, rows


def report_change(n: int, after: list[Row], before: list[Row]) -> None:
    """Print the sweep with the change and without it: findings on fix/correct variants, new and gone rows."""
    print("variants", n)
    for tag, rows in (("after", after), ("before", before)):
        print(tag, "findings", len(rows), "on fix/correct", [r for r in rows if r[2] != "bug"])
    print("new:", sorted(set(after) - set(before)))
    print("gone:", sorted(set(before) - set(after)))


def print_sweep(codes: Iterable[str], gate: Optional[Gate], sets: Optional[list[str]] = None) -> None:
    """Run :func:`sweep` over ``sets`` (default: every set ``score.py`` knows) and print the counts and rows: a row
    on a fix/correct variant is a flagged twin or tricky-correct program."""
    from score import SETS

    codes = tuple(codes)
    chosen = sets or [s for s in SETS if s != "all"]
    n, rows = sweep(codes, gate, chosen)
    print(f"{'+'.join(codes)} over {len(chosen)} sets: variants read {n}, "
          f"bug-variant findings {len([r for r in rows if r[2] == 'bug'])}, "
          f"fix/correct findings {len([r for r in rows if r[2] != 'bug'])}")
    for r in rows:
        print("  ", *r)
