"""det119: the in-process twins check: PF166, PF167 and PF676 run file by file over every gated bug/fix/tricky-correct
variant of every bug set, with det119's PF676 factory reading and with it undone (PF166 and PF167 are new: every finding of
it is new); prints findings on fix/correct variants and the new/gone ones (bench/bugs/det119_twins_inprocess.txt).

    python bench/bugs/det119_twins_inprocess.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases

import preflight.rules.code.pf676_eval_loader_drop_last as pf676
from preflight.diagnostics import FileError
from preflight.engine import Selection, analyse_parsed
from preflight.sources import SourceText, parse_python

Row = tuple[str, str, str, str, str, int]
GATES = {
    "PF166": lambda t: "init_inference" in t,
    "PF676": lambda t: "drop_last" in t,
    "PF167": lambda t: "num_labels" in t,
}


def _findings(text: str, name: str, codes: tuple[str, ...]) -> list:
    src = SourceText(path=Path(name), display=name, kind="python", raw=text.encode(), text=text)
    parsed = parse_python(src)
    if isinstance(parsed, FileError):
        return []
    return list(analyse_parsed(parsed, Selection(codes=codes)))


def sweep(codes: tuple[str, ...]) -> tuple[int, list[Row]]:
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
                        if not files or not any(GATES[c](text) for c in codes):
                            continue
                        n += 1
                        label = "correct" if case.kind == "correct" else variant
                        for name, body in files.items():
                            if name.endswith(".py"):
                                out += [(which, case.id, label, f.code, name, f.span.line)
                                        for f in _findings(body, name, codes)]
    return n, out


if __name__ == "__main__":
    n, after = sweep(("PF166", "PF167", "PF676"))
    pf676.EvalLoaderDropsLastBatch._shared_factory = lambda *a, **k: None  # type: ignore[method-assign]
    _, before = sweep(("PF676",))
    print("variants", n)
    for tag, rows in (("after", after), ("before", before)):
        print(tag, "findings", len(rows), "on fix/correct", [r for r in rows if r[2] != "bug"])
    print("new:", sorted(set(after) - set(before)))
    print("gone:", sorted(set(before) - set(after)))
