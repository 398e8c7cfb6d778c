"""det135: PF268 (a GPU named in a launch-script comment) and PF689 (multi-machine accelerate processes per node)
on every bug/fix/tricky-correct variant of the bug sets named (all families) whose text could make them fire:
``num_machines``/``num-machines`` anywhere, or a comment line naming a catalog GPU. Each such variant runs
through score.py's ``run_variant`` (check, audit, validate, as the scorer runs it).

Prints the PF268/PF689 findings on fix/correct variants (a flagged twin or tricky-correct program) and on bug
variants.

    python bench/bugs/det135_twins.py held-out-40 ... held-out-46
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from score import SETS, parse_cases, run_variant

CODES = ("PF268", "PF689")
_GPU_COMMENT = re.compile(r"^\s*#(?!SBATCH|!).*\b(?:[ABHLPTV]\d{1,3}[GS]?|RTX|GTX|MI\d{3})", re.MULTILINE)


def gate(text: str) -> bool:
    return "num_machines" in text or "num-machines" in text or _GPU_COMMENT.search(text) is not None


def main() -> None:
    exe = [sys.executable, "-m", "preflight"]
    sets = sys.argv[1:]
    n = 0
    rows = []
    for which in sets:
        for folder in SETS[which]:
            for cases in sorted(folder.glob("*.cases")):
                for case in parse_cases(cases):
                    for variant, files in case.files.items():
                        if not files or not gate("\n".join(files.values()) + "\n" + case.launch):
                            continue
                        label = "correct" if case.kind == "correct" else variant
                        n += 1
                        with tempfile.TemporaryDirectory(prefix="det135-") as tmp:
                            for f in run_variant(exe, Path(tmp), files, case.launch):
                                if f[0] in CODES:
                                    rows.append((which, case.id, label, f[0], f[1], f[2], f[3]))
    print(f"variants run {n}; findings on bug variants {sum(r[2] == 'bug' for r in rows)}, "
          f"on fix/correct variants {sum(r[2] != 'bug' for r in rows)}")
    for r in rows:
        print("  ", *r)


if __name__ == "__main__":
    main()
