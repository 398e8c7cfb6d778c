"""det142: PF1041's scan over real shell scripts: every .sh/.slurm/.sbatch/.bash file that names a distributed
launcher and a background `&`, in the materialized real jobs (PREFLIGHT_REALJOBS_WORK, default
/work/wt/jobswork/all) and at HEAD of the bare mirrors under /work/.mirror. Prints the files read and every pair
of concurrent launches on one port the rule would report (file:line).

    python bench/bugs/det142_real_shell.py
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from preflight.rules.plan.pf1041_concurrent_launches_share_rendezvous_port import _concurrent_pairs

SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash")
LAUNCHER = re.compile(r"torchrun|torch\.distributed\.(launch|run)|deepspeed|accelerate launch")


def candidates():
    root = Path(os.environ.get("PREFLIGHT_REALJOBS_WORK", "/work/wt/jobswork/all"))
    for path in sorted(root.rglob("*")):
        if path.suffix in SUFFIXES and path.is_file():
            text = path.read_text(errors="replace")
            yield str(path), text
    for git in sorted(Path("/work/.mirror").glob("*/repo")):
        names = subprocess.run(["git", "--git-dir", str(git), "ls-tree", "-r", "--name-only", "HEAD"],
                               capture_output=True, text=True, errors="replace").stdout.splitlines()
        for name in names:
            if name.endswith(SUFFIXES):
                text = subprocess.run(["git", "--git-dir", str(git), "show", f"HEAD:{name}"],
                                      capture_output=True, text=True, errors="replace").stdout
                yield f"{git.parent.name}:{name}", text


def main() -> None:
    read = background = 0
    hits = []
    for name, text in candidates():
        if not LAUNCHER.search(text):
            continue
        read += 1
        if re.search(r"&\s*(#.*)?$", text, re.M):
            background += 1
        for earlier, later in _concurrent_pairs(text):
            hits.append(f"{name}:{later.line}: {later.launcher} port {later.port} (with line {earlier.line})")
    print(f"shell scripts naming a launcher: {read}; with a background `&`: {background}; findings: {len(hits)}")
    for h in hits:
        print("  ", h)


if __name__ == "__main__":
    main()
