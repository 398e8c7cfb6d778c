"""The in-process twins sweep the detN_twins_inprocess scripts share: every bug/fix/tricky-correct variant of
every bug set (or of the sets named), each Python file parsed once and run through the selected rules.

A row is (set, case id, label, code, file, line); the label is the variant ("bug", "fix") or "correct" for a
tricky-correct program, so rows whose label is not "bug" are findings on programs that must stay silent.
``gate(text, files)`` skips the variants whose joined text (files + launch line) a rule could not fire on.

From the command line (instead of one wrapper script per change)::

    python bench/bugs/twins_sweep.py --codes PF294,PF555 [--plan PF555] [--contains DataParallel --contains DDP]
        [--sets held-out-40..48]

file rules in ``--codes`` run file by file, the codes also named by ``--plan`` run as plan rules on the variant's
whole project; ``--contains`` keeps the variants whose text holds any of the strings (the gate); ``--sets`` takes
set names or one ``held-out-A..B`` range (default: every set ``score.py`` knows).
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


# -- plan rules: each variant written to a temporary project and its plan built as ``audit`` builds it --------------

def launch_line(files: dict, fallback: str) -> list:
    """The launch line of a variant: the last command of its shell script that runs a ``.py`` file (continuation
    lines joined), else ``fallback`` (the case's ``launch:`` line), split as a shell would."""
    import shlex

    for name, text in sorted(files.items()):
        if not name.endswith((".sh", ".sbatch", ".bash")):
            continue
        joined = text.replace("\\\n", " ")
        runs = [ln.strip() for ln in joined.splitlines() if ".py" in ln and not ln.strip().startswith("#")]
        if runs:
            try:
                return shlex.split(runs[-1])
            except ValueError:
                break
    try:
        return shlex.split(fallback) if fallback else []
    except ValueError:
        return []


def plan_findings(files: dict, argv: list, codes: Iterable[str], prefix: str = "plan-sweep-") -> list:
    """The findings of the plan rules ``codes`` on one variant (every Python file a script, every config a config),
    built under a temporary ``example/project`` folder; a code the checkout lacks (a base run) is skipped."""
    import tempfile

    from preflight.plan_rules import PlanContext, build_files
    from preflight.registry import all_rules

    out = []
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        plan, project = build_files(files, argv, Path(tmp) / "example" / "project", strict=False)
        pctx = PlanContext(plan, project)
        rules = all_rules(plugins=False)
        for code in codes:
            if code in rules:
                out.extend(rules[code]().check_plan(pctx))  # type: ignore[attr-defined]
    return out


def print_plan_sweep(codes: Iterable[str], gate: Optional[Gate], sets: Optional[list[str]] = None,
                     prefix: str = "plan-sweep-") -> None:
    """Run the plan rules ``codes`` on every variant of ``sets`` (default: every set ``score.py`` knows) that ``gate``
    lets through and print, per code, the bug-variant and fix/correct findings, then every row (a row on a fix/correct
    variant is a newly flagged twin or tricky-correct program)."""
    codes = tuple(codes)
    chosen = sets or [s for s in SETS if s != "all"]
    launches = {case.id: case.launch for which in chosen for folder in SETS[which]
                for cases in sorted(folder.glob("*.cases")) for case in parse_cases(cases)}
    n = 0
    rows: list[Row] = []
    for which, case_id, label, files in variants(chosen, gate):
        n += 1
        for f in plan_findings(files, launch_line(files, launches.get(case_id, "")), codes, prefix):
            rows.append((which, case_id, label, f.code, f.path, f.span.line))
    print("sets", len(chosen), "variants read", n)
    for code in codes:
        print(code, "bug-variant findings", len([r for r in rows if r[2] == "bug" and r[3] == code]),
              "fix/correct findings", len([r for r in rows if r[2] != "bug" and r[3] == code]))
    for r in rows:
        print("  ", *r)


# -- command line ------------------------------------------------------------------------------------------------------

def expand_sets(spec: Optional[str]) -> Optional[list[str]]:
    """``held-out-40..48`` -> the nine set names; ``a,b`` -> [a, b]; None -> None (every set). An unknown set name
    raises SystemExit with the names ``score.py`` knows."""
    if not spec:
        return None
    names: list[str] = []
    for part in spec.split(","):
        part = part.strip()
        if ".." in part and part.startswith("held-out-"):
            lo, hi = part[len("held-out-"):].split("..", 1)
            names += [f"held-out-{n}" for n in range(int(lo), int(hi) + 1)]
        elif part:
            names.append(part)
    unknown = [n for n in names if n not in SETS]
    if unknown:
        raise SystemExit(f"twins_sweep: unknown set(s) {', '.join(unknown)}; known: "
                         f"{', '.join(s for s in SETS if s != 'all')}")
    return names


def contains_gate(needles: list[str]) -> Optional[Gate]:
    """The gate that lets a variant through when its text holds any of ``needles`` (None: every variant)."""
    if not needles:
        return None
    return lambda text, _files: any(n in text for n in needles)


def main(argv: Optional[list[str]] = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Findings of the named rules on every bug/fix/tricky-correct variant "
                                             "of the bug sets: a row on a fix/correct variant is a flagged twin.")
    ap.add_argument("--codes", default="", help="comma-separated file-rule codes")
    ap.add_argument("--plan", default="", help="comma-separated plan-rule codes")
    ap.add_argument("--contains", action="append", default=[], help="keep variants whose text holds this (repeatable)")
    ap.add_argument("--sets", default="", help="set names, comma-separated, or held-out-A..B")
    args = ap.parse_args(argv)
    file_codes = [c for c in args.codes.split(",") if c]
    plan_codes = [c for c in args.plan.split(",") if c]
    if not file_codes and not plan_codes:
        ap.error("name at least one code with --codes or --plan")
    sets = expand_sets(args.sets)
    gate = contains_gate(args.contains)
    if file_codes:
        print_sweep(file_codes, gate, sets)
    if plan_codes:
        print_plan_sweep(plan_codes, gate, sets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
