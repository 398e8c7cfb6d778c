"""det149: PF479 over real code: every .py file that names DistributedDataParallel (or calls ``.prepare(``) in the
materialized real jobs (PREFLIGHT_REALJOBS_WORK, default /work/wt/jobswork/all) and at HEAD of the bare mirrors
under /work/.mirror. Prints the files read and every finding (path:line message head); the findings that go
through a helper function (det149's extension) say "passed to".

    python bench/bugs/det149_real_code.py [CODES [NEEDLE,NEEDLE...]]

(second use: ``PF397 accumulate_grad_batches`` for the Lightning extension of PF397)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from twins_sweep import findings

CODES = tuple(sys.argv[1].split(",")) if len(sys.argv) > 1 else ("PF479",)
NEEDLES = tuple(sys.argv[2].split(",")) if len(sys.argv) > 2 else ("DistributedDataParallel", ".prepare(")


def jobs_files():
    root = Path(os.environ.get("PREFLIGHT_REALJOBS_WORK", "/work/wt/jobswork/all"))
    for path in sorted(root.rglob("*.py")):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        if any(n in text for n in NEEDLES):
            yield str(path), text


def mirror_files():
    for git in sorted(Path("/work/.mirror").glob("*/repo")):
        seen = set()
        for needle in NEEDLES:
            try:
                out = subprocess.run(["git", "--git-dir", str(git), "grep", "-l", "-F", needle, "HEAD", "--", "*.py"],
                                     capture_output=True, text=True, timeout=60).stdout
            except subprocess.TimeoutExpired:
                continue
            for line in out.splitlines():
                rev_path = line.strip()
                if rev_path in seen:
                    continue
                seen.add(rev_path)
                text = subprocess.run(["git", "--git-dir", str(git), "show", rev_path],
                                      capture_output=True, text=True, errors="replace").stdout
                yield f"{git.parent.name}:{rev_path.split(':', 1)[1]}", text


def main() -> None:
    read = 0
    hits = []
    for name, text in [*jobs_files(), *mirror_files()]:
        read += 1
        for f in findings(text, Path(name).name, CODES):
            hits.append(f"{name}:{f.span.line}: {f.code} {f.message[:150]}")
    helper = sum("passed to" in h for h in hits)
    print(f"files naming {' or '.join(NEEDLES)}: {read}; findings: {len(hits)} (through a helper: {helper})")
    for h in hits:
        print("  ", h)


if __name__ == "__main__":
    main()
