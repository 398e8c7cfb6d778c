"""Every PF474 and PF368 finding on the Python files of the held-out cases that det78's changes can reach
(det78_reach.GATES), computed in process with the preflight found first on ``sys.path``: run once with the
start commit's tree on ``PYTHONPATH`` and once with this tree, and compare. Both rules are file rules whose
findings depend only on the file and on no other rule (tests/test_rules_meta.py pins it), so a case whose
lines are the same before and after cannot score differently for them.

Usage::

    PYTHONPATH=/tmp/base python bench/bugs/det78_rule_diff.py > before.txt
    python bench/bugs/det78_rule_diff.py > after.txt
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import det78_reach
import score

from preflight.diagnostics import FileError
from preflight.engine import Selection, analyse_parsed
from preflight.registry import all_rules
from preflight.sources import SourceText, parse_python

CODES = ("PF474", "PF368")


def main() -> int:
    known = tuple(c for c in CODES if c in all_rules(plugins=False))
    print(f"# rules run: {', '.join(known)}")
    for n in range(20, 33):
        for case in score.load_cases(None, f"held-out-{n}"):
            if not det78_reach.reachable(case):
                continue
            for variant in ("bug", "fix"):
                files = {**case.files.get("both", {}), **case.files.get(variant, {})}
                lines = []
                for name, text in sorted(files.items()):
                    if not name.endswith(".py"):
                        continue
                    src = SourceText(path=Path(name), display=name, kind="python", raw=text.encode(), text=text)
                    parsed = parse_python(src)
                    if isinstance(parsed, FileError):
                        continue
                    lines += [f"{name}:{f.span.line} {f.code}" for f in analyse_parsed(parsed, Selection(codes=known))
                              if f.code in known]
                print(f"held-out-{n} {case.family} {case.id} {case.kind} {variant}: {' '.join(lines) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
