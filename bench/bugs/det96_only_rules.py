"""det96: PF389-PF394 (file rules) run alone over every case of other bug sets, in one ``preflight check``
process: each case's bug/, fix/ and both/ files are written to WORK/<set>/<case>/<variant>/ (a ``kind:
correct`` case's files under ``correct``) and the findings are listed per set, case and variant. A finding on a
fix/ variant or a ``correct`` case is a twin or tricky-correct program the rules flag; one on a bug/ variant is
a case they may newly find (score it for real with score.py --case).

    python bench/bugs/det96_only_rules.py WORK cases heldout heldout2 ... heldout37
    python bench/bugs/det96_only_rules.py --codes PF315,PF440 WORK cases heldout ...   (other rules, det98)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

CODES = "PF389,PF390,PF391,PF392,PF393,PF394"


def main() -> None:
    args = sys.argv[1:]
    codes = CODES
    if args[:1] == ["--codes"]:
        codes, args = args[1], args[2:]
    work = Path(args[0])
    cases_seen: Counter = Counter()
    for name in args[1:]:
        for cases in sorted(Path(f"bench/bugs/{name}").glob("*.cases")):
            for block in re.split(r"^### case: ", cases.read_text(), flags=re.M)[1:]:
                cid = block.split("\n", 1)[0].strip()
                correct = bool(re.search(r"^kind: correct", block, re.M))
                cases_seen[name] += 1
                for part in re.split(r"^--- ", block, flags=re.M)[1:]:
                    head, _, body = part.partition("\n")
                    variant, _, path = head.strip().partition("/")
                    if variant not in ("bug", "fix", "both") or not path:
                        continue
                    for label in (["bug", "fix"] if variant == "both" else [variant]):
                        dest = work / name / cid / ("correct" if correct else label) / path
                        dest.parent.mkdir(parents=True, exist_ok=True)
                        dest.write_text(body)
    done = subprocess.run([sys.executable, "-m", "preflight", "check", str(work), "--select", codes,
                           "--format", "json"], capture_output=True, text=True, check=False)
    findings = json.loads(done.stdout).get("findings", [])
    per: Counter = Counter()
    for f in sorted(findings, key=lambda f: (f["path"], f["line"])):
        rel = Path(f["path"]).resolve().relative_to(work.resolve())
        name, cid, variant = rel.parts[:3]
        per[variant] += 1
        print(f"{f['code']} {name} {cid} {variant} {'/'.join(rel.parts[3:])}:{f['line']}")
    print(f"cases: {sum(cases_seen.values())} in {len(cases_seen)} sets; findings per variant: "
          f"bug {per['bug']}, fix {per['fix']}, correct {per['correct']}")


if __name__ == "__main__":
    main()
