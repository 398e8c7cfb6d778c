"""det119: the real-code check of PF166 (int8 kernel injection without a DeepSpeed int8 checkpoint), PF167 (num_labels
against a checkpoint's fine-tuned head) and PF676's
det119 extension (a loader factory whose drop_last ignores its mode, called for evaluation); the figures of
bench/bugs/det119_real_code.txt. The det95_real_code.py machinery with det119's pools.

    python bench/bugs/det119_real_code.py --work DIR [--mirrors /work/.mirror] [--jobs /work/wt/jobswork/all]

For each rule, every file at the HEAD of each bare mirror (``MIRRORS/<owner>+<name>/repo``) that holds all of
the rule's trigger patterns is re-created under WORK/<rule>/<repo>/, and so is every such file of the
materialized jobs (JOBS/<owner>+<name>/<commit>/...); then ``preflight check WORK/<rule> --select <rule>``
(PF684, a config rule: ``preflight audit``). Printed: the pool size and every finding, to be read by hand.
Nothing fetched is committed; WORK is scratch.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

# rule -> (file globs, patterns that must all occur)
POOLS = {
    "PF166": (["*.py"], [r"init_inference", r"replace_with_kernel_inject|int8"]),
    "PF676": (["*.py"], [r"DataLoader\(", r"drop_last"]),
    "PF167": (["*.py"], [r"num_labels", r"Classification\.from_pretrained\("]),
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, text=True,
                          errors="replace", check=False).stdout


def mirror_files(mirrors: Path, globs: list[str], patterns: list[str]):
    for mirror in sorted(mirrors.iterdir()):
        repo = mirror / "repo"
        if not repo.is_dir():
            continue
        args = ["grep", "-l", "-I", "-E", "--all-match"]
        for p in patterns:
            args += ["-e", p]
        listed = git(repo, *args, "HEAD", "--", *globs).splitlines()
        for line in listed[:200]:
            path = line.split(":", 1)[1]
            yield mirror.name, path, lambda repo=repo, path=path: git(repo, "show", f"HEAD:{path}")


def job_files(jobs: Path, globs: list[str], patterns: list[str]):
    regs = [re.compile(p, re.M) for p in patterns]
    for repo in sorted(jobs.iterdir()) if jobs.is_dir() else []:
        for commit in repo.iterdir():
            for glob in globs:
                for f in commit.rglob(glob):
                    try:
                        text = f.read_text(errors="replace")
                    except OSError:
                        continue
                    if all(r.search(text) for r in regs):
                        yield f"{repo.name}@{commit.name}", str(f.relative_to(commit)), lambda text=text: text


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--jobs", type=Path, default=Path("/work/wt/jobswork/all"))
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--rules", default=",".join(POOLS))
    opts = ap.parse_args()
    for rule in opts.rules.split(","):
        globs, patterns = POOLS[rule]
        root = opts.work / rule
        count = 0
        for source in (mirror_files(opts.mirrors, globs, patterns), job_files(opts.jobs, globs, patterns)):
            for name, path, read in source:
                dest = root / name.replace("@", "+") / path
                if dest.exists():
                    continue
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_text(read())
                count += 1
        print(f"{rule} pool: {count} files", flush=True)
        if not count:
            continue
        command = "check"
        done = subprocess.run([sys.executable, "-m", "preflight", command, str(root), "--select", rule,
                               "--format", "json"], capture_output=True, text=True, check=False)
        try:
            findings = json.loads(done.stdout).get("findings", [])
        except json.JSONDecodeError:
            print(done.stdout[-2000:], done.stderr[-2000:])
            continue
        for f in findings:
            where = f.get("path") or f.get("file")
            print(f"{rule} FINDING {where}:{f.get('line') or f.get('span', {}).get('line')}: "
                  f"{f.get('message', '')[:100]}", flush=True)
        print(f"{rule} findings: {len(findings)}", flush=True)


if __name__ == "__main__":
    main()
