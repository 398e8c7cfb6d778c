"""det130: run the det130 rules (PF697..PF699) on real public code from the local mirrors.

Each Python file of /work/.mirror/<repo> (HEAD) that passes a cheap text filter is audited alone with a
multi-process launch line made up for it (the rules are plan rules that need a launch); the findings are
printed for reading. Never imports the code. Usage: python bench/bugs/det130_real_code.py CODE PATTERN LAUNCH
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from preflight.plan_rules import build_files, check_plan_rule

MIRRORS = Path("/work/.mirror")


def files(pattern: str):
    for d in sorted(MIRRORS.iterdir()):
        git = d / "repo" if (d / "repo").is_dir() else d
        if not git.is_dir():
            continue
        out = subprocess.run(["git", "--git-dir", str(git), "grep", "-l", "-E", pattern, "HEAD", "--", "*.py"],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            path = line.split(":", 1)[1]
            text = subprocess.run(["git", "--git-dir", str(git), "show", line], capture_output=True,
                                  text=True).stdout
            yield d.name, path, text


def main() -> int:
    code, pattern, launch = sys.argv[1], sys.argv[2], sys.argv[3]
    seen = fired = 0
    for repo, path, text in files(pattern):
        name = Path(path).name
        seen += 1
        with tempfile.TemporaryDirectory() as tmp:
            try:
                plan, project = build_files({name: text}, shlex.split(launch.format(script=name)), Path(tmp),
                                            strict=False)
                found = check_plan_rule(code, plan, project)
            except Exception as exc:  # a file preflight cannot read: reported, not hidden
                print(f"ERROR {repo} {path}: {type(exc).__name__}: {exc}")
                continue
        for f in found:
            fired += 1
            print(f"FIRE {repo} {path}:{f.span.line}: {f.message[:160]}")
    print(f"{code}: {seen} files read, {fired} findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
