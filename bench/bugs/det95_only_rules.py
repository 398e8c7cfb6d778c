"""det95: PF679, PF680 and PF683 (file rules) run alone over every case of held-out sets, in one
``preflight check`` process: each case's bug/ and fix/ files are written to WORK/<set>/<case>/<variant>/ and
the findings are listed per case and variant. A finding on a fix/ variant, or on a ``kind: correct`` case, is a
twin or tricky-correct case the rules flag; one on a bug/ variant is a case they may newly find (scored for
real with score.py --case). PF684 (a config rule) is run with ``preflight audit`` on the variants whose text
holds ``LearningRateFinder`` (with the case's ``launch:`` line after ``--``, as score.py does).

    python bench/bugs/det95_only_rules.py WORK 2 3 ... 37
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path


def main() -> None:
    work = Path(sys.argv[1])
    launches: dict[Path, list[str]] = {}
    for n in sys.argv[2:]:
        for cases in sorted(Path(f"bench/bugs/heldout{n}").glob("*.cases")):
            text = cases.read_text()
            for block in re.split(r"^### case: ", text, flags=re.M)[1:]:
                cid = block.split("\n", 1)[0].strip()
                correct = bool(re.search(r"^kind: correct", block, re.M))
                launch = re.search(r"^launch:\s*(.+)$", block, re.M)
                if launch:
                    for label in ("bug", "fix", "correct"):
                        launches[work / n / cid / label] = shlex.split(launch.group(1))
                for part in re.split(r"^--- ", block, flags=re.M)[1:]:
                    head, _, body = part.partition("\n")
                    variant, _, path = head.strip().partition("/")
                    if variant not in ("bug", "fix") or not path:
                        continue
                    label = "correct" if correct else variant
                    dest = work / n / cid / label / path
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_text(body)
    done = subprocess.run([sys.executable, "-m", "preflight", "check", str(work), "--select",
                           "PF679,PF680,PF683", "--format", "json"], capture_output=True, text=True, check=False)
    findings = json.loads(done.stdout).get("findings", [])
    for variant in sorted({p.parent for p in work.glob("*/*/*/**/*") if p.is_file()
                           and "LearningRateFinder" in p.read_text(errors="replace")}):
        top = variant
        while top.parent.parent.parent != work:
            top = top.parent
        argv = ["audit", ".", "--select", "PF684", "--format", "json"]
        if top in launches:
            argv += ["--", *launches[top]]
        audit = subprocess.run([sys.executable, "-m", "preflight", *argv], capture_output=True, text=True,
                               check=False, cwd=top)
        try:
            found = json.loads(audit.stdout).get("findings", [])
        except json.JSONDecodeError:
            print("audit failed", top, audit.stderr[-500:])
            continue
        for f in found:
            f["path"] = str(top / (f.get("path") or ""))
        findings.extend(found)
    for f in findings:
        where = f.get("path") or f.get("file") or ""
        line = f.get("line") or f.get("span", {}).get("line")
        print(f"{f.get('code')} {Path(where).relative_to(work) if where.startswith(str(work)) else where}:{line}")
    print(f"findings: {len(findings)}")


if __name__ == "__main__":
    main()
