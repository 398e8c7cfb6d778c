"""How many real launch scripts preflight's shell reader understands.

Every ``.sh``/``.sbatch``/``.slurm`` file of the repositories in
``launch_scripts_manifest.json`` (at their pinned commits, read from local bare mirrors
``$PREFLIGHT_MIRRORS/<owner>+<name>/repo``, default ``/work/.mirror``; nothing fetched is
committed) that mentions a launcher (``torchrun``, ``deepspeed``, ``accelerate launch``,
``python``, ``srun``) is read with ``read_shell``, in process and without running anything.
Printed: the scripts, those with at least one launch line, and those with a launch line that
names a training script (what ``preflight audit run.sh`` needs). Not every script launches
training (data preparation, evaluation, submission of other scripts): the figure is a floor
on what the reader misses, not a recall; read the scripts it lists with ``--missed``.

    python bench/realworld/launch_scripts.py [--json OUT] [--compare OLD.json] [--missed]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MIRRORS = Path(os.environ.get("PREFLIGHT_MIRRORS", "/work/.mirror"))
_LAUNCHER = re.compile(r"torchrun|deepspeed|accelerate launch|python3? |srun")
_SUFFIXES = (".sh", ".sbatch", ".slurm")


def _scripts(repo: str, commit: str):
    git_dir = MIRRORS / repo.replace("/", "+", 1) / "repo"
    if not git_dir.exists():
        print(f"  {repo}: no mirror at {git_dir} (skipped)", file=sys.stderr)
        return
    names = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", "--name-only", commit],
                           capture_output=True, check=True).stdout.decode("utf-8", "replace").split("\0")
    for name in sorted(n for n in names if n.endswith(_SUFFIXES)):
        blob = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{name}"], capture_output=True)
        if blob.returncode != 0 or len(blob.stdout) > 2_000_000:
            continue
        text = blob.stdout.decode("utf-8", "replace")
        if _LAUNCHER.search(text):
            yield name, text


def main() -> int:
    from preflight.adapters.shell import read_shell

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path, help="write each script's launch lines here")
    ap.add_argument("--compare", type=Path, help="a --json output of another commit: print what changed")
    ap.add_argument("--missed", action="store_true", help="list the scripts without a launch that names a script")
    args = ap.parse_args()
    manifest = json.loads((HERE / "launch_scripts_manifest.json").read_text())
    out: dict[str, list] = {}
    for entry in manifest["repos"]:
        for name, text in _scripts(entry["repo"], entry["commit"]):
            lines = read_shell(text, name).launches
            out[f"{entry['repo']}:{name}"] = [[ln.line, ln.info.launcher, ln.info.wrapper, ln.info.script]
                                              for ln in lines]
    total = len(out)
    any_line = sum(1 for v in out.values() if v)
    named = sum(1 for v in out.values() if any(x[3] for x in v))
    print(f"{len(manifest['repos'])} repositories, {total} launch-like scripts")
    print(f"  with a launch line:                  {any_line:5d} ({any_line / max(total, 1):.1%})")
    print(f"  with a launch that names a script:   {named:5d} ({named / max(total, 1):.1%})")
    if args.missed:
        for key, v in out.items():
            if not any(x[3] for x in v):
                print(f"  missed: {key}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=0, sort_keys=True))
    if args.compare:
        old = json.loads(args.compare.read_text())
        for key in sorted(set(old) | set(out)):
            if old.get(key) != out.get(key):
                print(f"  changed: {key}\n    was {old.get(key)}\n    now {out.get(key)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
