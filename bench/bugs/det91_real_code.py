"""det91: the real-code check of the file-rule changes of det91 (PF475 split set_transform, PF488 through
a Trainer subclass's compute_loss, PF658 epochs from steps under accumulation), the figures of
bench/bugs/det91_real_code.txt.

    python bench/bugs/det91_real_code.py [--mirrors /work/.mirror] [--work DIR]

For each rule, every .py file at the HEAD of each bare mirror (``MIRRORS/<owner>+<name>/repo``) that holds
the rule's trigger text is re-created under WORK/<rule>/<repo>/ and checked with
``preflight check WORK/<rule> --select <rule>``. Printed: the pool size, every finding, and the candidate
lines (the trigger text) so the silent ones can be read. Nothing fetched is committed; WORK is scratch.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

POOLS = {
    "PF475": r"\]\.set_transform\(",
    "PF488": r"def compute_loss\(",
    "PF658": r"num_update_steps_per_epoch = len\(",
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, text=True,
                          errors="replace", check=False).stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--work", type=Path, required=True)
    opts = ap.parse_args()
    for rule, pattern in POOLS.items():
        root = opts.work / rule
        count = 0
        for mirror in sorted(opts.mirrors.iterdir()):
            repo = mirror / "repo"
            if not repo.is_dir():
                continue
            head = git(repo, "rev-parse", "HEAD").strip()[:12]
            for line in git(repo, "grep", "-n", "-E", pattern, "HEAD", "--", "*.py").splitlines()[:40]:
                _, path, lineno, text = line.split(":", 3)
                print(f"{rule} candidate {mirror.name}@{head}:{path}:{lineno}: {text.strip()[:90]}")
                dest = root / mirror.name / path
                if not dest.exists():
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_text(git(repo, "show", f"HEAD:{path}"))
                    count += 1
        print(f"{rule} pool: {count} files")
        if not count:
            continue
        done = subprocess.run([sys.executable, "-m", "preflight", "check", str(root), "--select", rule,
                               "--format", "json"], capture_output=True, text=True, check=False)
        try:
            findings = json.loads(done.stdout).get("findings", [])
        except json.JSONDecodeError:
            print(done.stdout[-2000:], done.stderr[-2000:])
            continue
        for f in findings:
            where = f.get("path") or f.get("file")
            print(f"{rule} FINDING {where}:{f.get('line') or f.get('span', {}).get('line')}: "
                  f"{f.get('message', '')[:100]}")
        print(f"{rule} findings: {len(findings)}")


if __name__ == "__main__":
    main()
