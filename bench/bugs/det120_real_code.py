"""det120: the det120 code rules (PF176-PF179, PF182) run alone, with ``preflight check --select``, over the real
Python files that hold a rule's gate: every file under a materialized real-jobs folder and every file at
the HEAD of each mirrored repository (``git grep`` over /work/.mirror). Each gated file is copied under
WORK (repository/path) and checked; the figures are bench/bugs/det120_real_code.txt.

    python bench/bugs/det120_real_code.py WORK /work/wt/jobswork/all /work/.mirror [PF176,PF182]
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

GATES = {
    "PF176": lambda t: "training_step" in t and ("no_grad" in t or "inference_mode" in t),
    "PF177": lambda t: "fast_dev_run" in t,
    "PF178": lambda t: "save_steps" in t,
    "PF179": lambda t: re.search(r"/=?\s*\(?\s*\w+\s*\+\s*1\s*\)", t) is not None and "+=" in t,
    "PF182": lambda t: "self.log" in t and any(w in t for w in ("is_global_zero", "rank_zero", "_rank")),
}
WORDS = ("training_step", "fast_dev_run", "save_steps", "+ 1)", "self.log")


def _gated(text: str) -> list:
    return [code for code, gate in GATES.items() if gate(text)]


def _from_tree(root: Path, out: Path, found: dict) -> None:
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if not name.endswith(".py"):
                continue
            path = Path(dirpath) / name
            try:
                text = path.read_text(errors="replace")
            except OSError:
                continue
            codes = _gated(text)
            if codes:
                dest = out / "jobs" / path.relative_to(root)
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_text(text)
                found[str(dest)] = codes


def _from_mirrors(root: Path, out: Path, found: dict) -> None:
    for repo in sorted(root.iterdir()):
        gitdir = repo / "repo" if (repo / "repo").is_dir() else repo
        if not gitdir.is_dir():
            continue
        git = ["git", f"--git-dir={gitdir}"]
        args = [a for w in WORDS for a in ("-e", w)]
        res = subprocess.run([*git, "grep", "-l", "-F", *args, "HEAD", "--", "*.py"],
                             capture_output=True, text=True)
        for line in res.stdout.splitlines():
            rel = line.split(":", 1)[1]
            show = subprocess.run([*git, "show", f"HEAD:{rel}"], capture_output=True, text=True, errors="replace")
            codes = _gated(show.stdout)
            if codes:
                dest = out / "mirror" / repo.name / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_text(show.stdout)
                found[str(dest)] = codes


def main() -> None:
    out = Path(sys.argv[1])
    found: dict = {}
    _from_tree(Path(sys.argv[2]), out, found)
    _from_mirrors(Path(sys.argv[3]), out, found)
    for code in [c for c in GATES if len(sys.argv) < 5 or c in sys.argv[4].split(",")]:
        files = sorted(f for f, codes in found.items() if code in codes)
        hits = []
        for i in range(0, len(files), 200):
            res = subprocess.run([sys.executable, "-m", "preflight", "check", "--select", code, "--format", "json",
                                  "--exit-zero", "--no-cache", *files[i:i + 200]], capture_output=True, text=True)
            try:
                report = json.loads(res.stdout)
            except ValueError:
                print(code, "unreadable report", res.stderr[-300:])
                continue
            items = report.get("findings", report) if isinstance(report, dict) else report
            hits.extend(items)
        print(f"{code}: {len(files)} gated real files, {len(hits)} findings")
        for h in hits:
            path = os.path.relpath(h.get("path") or h.get("file") or "", out)
            print("  ", path, h.get("line"), (h.get("message") or "")[:150])


if __name__ == "__main__":
    main()
