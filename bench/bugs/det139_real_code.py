"""det139: PF119, PF633 and PF379 over real code. Every Python file at HEAD of the mirrored public repositories
(/work/.mirror/<owner>+<name>/repo, bare) that names ``CosineAnnealingLR``, ``random_split`` or ``Subset`` is run
through the three rules in process; the files read and the findings are printed for reading
(bench/bugs/det139_real_code.txt).

    python bench/bugs/det139_real_code.py [MIRROR_ROOT]
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import findings

CODES = ("PF119", "PF633", "PF379")
WORDS = ("CosineAnnealingLR", "random_split", "Subset")


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror")
    read = hits = 0
    for repo in sorted(root.glob("*/repo")):
        git = ["git", "--git-dir", str(repo)]
        args = [*git, "grep", "-l", *(x for w in WORDS for x in ("-e", w)), "HEAD", "--", "*.py"]
        res = subprocess.run(args, capture_output=True, text=True)
        for line in res.stdout.splitlines():
            path = line.split(":", 1)[1]
            text = subprocess.run([*git, "show", f"HEAD:{path}"], capture_output=True, text=True,
                                  errors="replace").stdout
            read += 1
            for f in findings(text, path, CODES):
                hits += 1
                print(f"{repo.parent.name}:{path}:{f.span.line} {f.code} {f.message[:160]}")
    print(f"files read {read}, findings {hits}")


if __name__ == "__main__":
    main()
