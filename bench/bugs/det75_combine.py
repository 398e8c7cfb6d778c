"""Join a full ``score.py -v`` run (before a change) with a ``score.py -v`` run of only the rules the
change adds (``det75_only_rules.py``): the after-table per family, and the cases the rules newly find
or newly flag. See det75_only_rules.py for why the two are separable.

Usage: python bench/bugs/det75_combine.py BEFORE.txt ONLY_RULES.txt
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter, defaultdict

_BUG = re.compile(r"^(hit|MISS)\s+(\S+)\s+(\S+)\s+by=(\[.*?\]) twin=(\[.*?\])( \(labelled still buggy\))?$")
_OK = re.compile(r"^(ok |FP )\s*(\S+)\s+(\S+)\s+correct\s+flagged=(\[.*?\])( \(labelled still buggy\))?$")


def parse(path: str) -> dict[str, dict]:
    rows: dict[str, dict] = {}
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    for line in lines:
        m = _BUG.match(line)
        if m:
            twin = ast.literal_eval(m.group(5))
            rows[m.group(3)] = {"family": m.group(2), "kind": "bug", "by": ast.literal_eval(m.group(4)),
                                "flag": bool(twin) and not m.group(6), "twin": twin}
            continue
        m = _OK.match(line)
        if m:
            flagged = ast.literal_eval(m.group(4))
            rows[m.group(3)] = {"family": m.group(2), "kind": "correct", "by": [],
                                "flag": bool(flagged) and not m.group(5), "twin": flagged}
    return rows


def main() -> int:
    before, only = parse(sys.argv[1]), parse(sys.argv[2])
    missing = sorted(set(before) ^ set(only))
    if missing:
        print(f"cases in one run only: {missing}")
        return 1
    per: dict[str, Counter] = defaultdict(Counter)
    new_hits, new_flags = [], []
    for case, row in before.items():
        mine = only[case]
        s = per[row["family"]]
        flag = row["flag"] or bool(mine["twin"])
        if flag and not row["flag"]:
            new_flags.append((case, mine["twin"]))
        if row["kind"] == "correct":
            s["correct"] += 1
            s["correct_flagged"] += flag
            continue
        s["bugs"] += 1
        s["twins"] += 1
        s["flagged"] += flag
        found = bool(row["by"]) or bool(mine["by"])
        s["found"] += found
        s["found_before"] += bool(row["by"])
        if found and not row["by"]:
            new_hits.append((case, mine["by"]))
    print("| family | bugs | found before | found after | twins + correct flagged after |")
    print("|---|---|---|---|---|")
    total: Counter = Counter()
    for fam, s in sorted(per.items()):
        total.update(s)
        print(_row(fam, s))
    print(_row("**all**", total))
    print(f"newly found: {new_hits}")
    print(f"newly flagged twins/correct: {new_flags}")
    return 0


def _row(name: str, s: Counter) -> str:
    checked = s["twins"] + s["correct"]
    flagged = s["flagged"] + s["correct_flagged"]
    return (f"| {name} | {s['bugs']} | {s['found_before']} | {s['found']} | "
            f"{flagged}/{checked} ({100.0 * flagged / checked if checked else 0.0:.1f}%) |")


if __name__ == "__main__":
    sys.exit(main())
