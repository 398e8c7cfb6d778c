"""det142: PF1040 over real code: every .py file that names CUDA_VISIBLE_DEVICES in the materialized real jobs
(PREFLIGHT_REALJOBS_WORK, default /work/wt/jobswork/all) and at HEAD of the bare mirrors under /work/.mirror.
Prints the files read, the files that set the variable, and every finding (path:line message head).

    python bench/bugs/det142_real_code.py [CODES]
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import findings

CODES = tuple(sys.argv[1].split(",")) if len(sys.argv) > 1 else ("PF1040",)
NEEDLE = "CUDA_VISIBLE_DEVICES"


def jobs_files():
    root = Path(os.environ.get("PREFLIGHT_REALJOBS_WORK", "/work/wt/jobswork/all"))
    for path in sorted(root.rglob("*.py")):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        if NEEDLE in text:
            yield str(path), text


def mirror_files():
    for git in sorted(Path("/work/.mirror").glob("*/repo")):
        try:
            out = subprocess.run(["git", "--git-dir", str(git), "grep", "-l", NEEDLE, "HEAD", "--", "*.py"],
                                 capture_output=True, text=True, timeout=60).stdout
        except subprocess.TimeoutExpired:
            continue
        for line in out.splitlines():
            rev_path = line.strip()
            text = subprocess.run(["git", "--git-dir", str(git), "show", rev_path],
                                  capture_output=True, text=True, errors="replace").stdout
            yield f"{git.parent.name}:{rev_path.split(':', 1)[1]}", text


def main() -> None:
    read = setting = 0
    hits = []
    for name, text in [*jobs_files(), *mirror_files()]:
        read += 1
        if "environ[" in text or "environ.setdefault" in text or "environ.update" in text or "putenv" in text:
            setting += 1
        for f in findings(text, Path(name).name, CODES):
            hits.append(f"{name}:{f.span.line}: {f.code} {f.message[:110]}")
    print(f"files naming {NEEDLE}: {read}; that may set it: {setting}; findings: {len(hits)}")
    for h in hits:
        print("  ", h)


if __name__ == "__main__":
    main()
