"""det149: run `preflight check` and `preflight audit` on each survey program of det149_survey_programs.txt
(one `=== sNN_name/file` header per file) and print, per program, the codes reported (PF305, no seed, left
out: it fires on most programs and catches none of the surveyed classes). The programs are mine, written
from the reports: a survey, not a benchmark figure.

    python bench/bugs/det149_survey_run.py            # this checkout
    PYTHONPATH=/tmp/base python bench/bugs/det149_survey_run.py   # another tree (the branch point)
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

PROGRAMS = Path(__file__).resolve().parent / "det149_survey_programs.txt"


def split(root: Path) -> list[str]:
    parts = re.split(r"^=== (.+)$", PROGRAMS.read_text(), flags=re.M)
    names = []
    for i in range(1, len(parts), 2):
        path = root / parts[i].strip()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(parts[i + 1].lstrip("\n"))
        name = parts[i].strip().split("/", 1)[0]
        if name not in names:
            names.append(name)
    return names


def codes(mode: str, folder: Path) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "preflight", mode, str(folder)], capture_output=True, text=True,
                         timeout=300).stdout
    return sorted({c for c in re.findall(r"\b(PF\d{3,4})\b", out) if c != "PF305"})


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in split(root):
            check, audit = codes("check", root / name), codes("audit", root / name)
            print(f"{name}: check {' '.join(check) or '-'} | audit {' '.join(audit) or '-'}")


if __name__ == "__main__":
    main()
