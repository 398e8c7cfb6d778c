"""Record, or compare against a record, the findings of `check` on real trees.

    python bench/same_findings.py record  --root /tmp/speed --out DIR  TREE...
    python bench/same_findings.py compare --root /tmp/speed --out DIR  TREE...

Each TREE (a path under --root, e.g. ``diffusers`` or ``corpus/trl``) is checked with
``preflight check --no-cache -j 1 --format json --exit-zero TREE`` run from --root, so the
paths in the report are the same from run to run. ``record`` writes ``DIR/<name>.json``;
``compare`` checks again and says, per tree, whether the report is byte-identical to the
record (the JSON report holds no timing). Use it before and after a change to the analyses:
the speed work of issue #19 was held to byte-identical reports on the trees of
bench/corpus_trees.py.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path


def report(root: Path, tree: str) -> bytes:
    cmd = [sys.executable, "-m", "preflight", "check", "--no-cache", "-j", "1", "--format", "json",
           "--exit-zero", tree]
    return subprocess.run(cmd, cwd=root, check=True, capture_output=True).stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("record", "compare"))
    ap.add_argument("--root", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("trees", nargs="+")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    differ = 0
    for tree in args.trees:
        saved = args.out / f"{Path(tree).name}.json"
        now = report(args.root, tree)
        if args.mode == "record":
            saved.write_bytes(now)
            count = now.count(b'"code":')
            print(f"recorded {tree}: {count} findings -> {saved}")
        else:
            same = saved.exists() and saved.read_bytes() == now
            differ += not same
            print(f"{'same' if same else 'DIFFERENT'} {tree}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
