"""Per-family before/after table of one held-out set from score.py's verbose lines: the whole set's lines
before (``score.py --set S -v`` on the base commit) and the lines of the cases det69_subset.py reran after (the
cases det69's rules can reach; every other case's line is the same by construction). Prints the per-family
recall and flag counts before and after, and every case whose line changed.

Usage::

    python bench/bugs/det69_combine.py BEFORE.txt AFTER_SUBSET.txt [BEFORE_SUBSET.txt]

With a third file (a subset run on the base commit, for sets whose whole-set baseline was not rerun), the
table covers the reachable cases only.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict

LINE = re.compile(r"^(hit|MISS|ok |FP )\s+(\S+)\s+(\S+)\s+(.*)$")


def parse(path: str) -> dict[str, tuple[str, str, bool, bool, str]]:
    """case id -> (family, kind, found-or-flagged, twin flagged, the line)."""
    out = {}
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    for line in lines:
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        mark, family, cid, rest = m.groups()
        labelled = "(labelled still buggy)" in rest
        if mark in ("ok ", "FP "):
            out[cid] = (family, "correct", mark == "FP ", False, line.rstrip())
        else:
            twin = re.search(r"twin=\[(.*?)\]", rest)
            flagged = bool(twin and twin.group(1).strip()) and not labelled
            out[cid] = (family, "bug", mark == "hit", flagged, line.rstrip())
    return out


def table(rows: dict[str, tuple[str, str, bool, bool, str]]) -> dict[str, list[int]]:
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # bugs, found, twins flagged, correct, flagged
    for family, kind, a, b, _ in rows.values():
        s = per[family]
        if kind == "bug":
            s[0] += 1
            s[1] += a
            s[2] += b
        else:
            s[3] += 1
            s[4] += a
    return per


def main(argv: list[str]) -> int:
    before = parse(argv[0])
    after_subset = parse(argv[1])
    if len(argv) > 2:
        before = parse(argv[2])
    after = {**before, **{k: v for k, v in after_subset.items() if k in before or len(argv) > 2}}
    tb, ta = table(before), table(after)
    print("| family | bugs | found before | found after | twins flagged before | after | tricky flagged before | after |")
    print("|---|---|---|---|---|---|---|---|")
    for fam in ("pytorch", "lightning", "accelerate", "transformers", "deepspeed", "hydra"):
        if fam not in tb:
            continue
        b, a = tb[fam], ta[fam]
        print(f"| {fam} | {b[0]} | {b[1]} | {a[1]} | {b[2]}/{b[0]} | {a[2]}/{a[0]} | {b[4]}/{b[3]} | {a[4]}/{a[3]} |")
    allb = [sum(v[i] for v in tb.values()) for i in range(5)]
    alla = [sum(v[i] for v in ta.values()) for i in range(5)]
    print(f"| **all** | {allb[0]} | {allb[1]} | {alla[1]} | {allb[2]}/{allb[0]} | {alla[2]}/{alla[0]} | "
          f"{allb[4]}/{allb[3]} | {alla[4]}/{alla[3]} |")
    changed = [k for k in after if before.get(k) and before[k][2:4] != after[k][2:4]]
    missing = [k for k in after_subset if k not in before]
    print(f"\nchanged cases ({len(changed)}):")
    for k in changed:
        print("  before:", before[k][4])
        print("  after: ", after[k][4])
    if missing and len(argv) == 2:
        print("reran but not in the baseline:", missing)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
