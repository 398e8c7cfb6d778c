"""Re-create the real-code trees the speed benchmarks and the findings-identity check use.

The code of these repositories is never committed here; this script extracts their
``.py`` and ``.ipynb`` files at the pinned commits from bare git mirrors:

    python bench/corpus_trees.py --mirrors DIR --out /tmp/speed/corpus

``DIR/<owner>+<name>/repo`` (or ``DIR/<owner>+<name>``, or ``DIR/<name>.git``) must be a
clone holding the commit (``git clone --bare https://github.com/<owner>/<name>``). Each
tree lands in ``OUT/<name>``. The commits are those of docs/corpus.md; diffusers is the
tree of ``bench/bench_check.py``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

TREES = {
    "huggingface/diffusers": "58eb52c0803ea9af3abec60841c2a093bdf1f951",
    "pytorch/examples": "77f55b912142e11fcfdf5b530231fb9c52f181e8",
    "karpathy/nanoGPT": "3adf61e154c3fe3fca428ad6bc3818b27a3b8291",
    "karpathy/minGPT": "37baab71b9abea1b76ab957409a1cc2fbfba8a26",
    "huggingface/accelerate": "16cb6eb80dd9aa8b4df1a63ef57863e455d53b83",
    "huggingface/trl": "f2cd57710ae345ea6428ae95363267fcf38a3dc8",
    "microsoft/DeepSpeedExamples": "83757d9c937daabd1089a08051061706cb73900d",
    "pytorch/torchtune": "bd2a0fc7c31430972728494fa01aaeeb0ebf1ba1",
    "vwxyzjn/cleanrl": "fe8d8a03c41a7ef5b523e2e354bd01c363e786bb",
}
SUFFIXES = (".py", ".ipynb")


def _git_dir(mirrors: Path, repo: str) -> Path:
    owner, name = repo.split("/")
    for cand in (mirrors / f"{owner}+{name}" / "repo", mirrors / f"{owner}+{name}",
                 mirrors / f"{name}.git", mirrors / name):
        if cand.exists():
            return cand
    raise SystemExit(f"no mirror of {repo} under {mirrors}")


def extract(git_dir: Path, commit: str, out: Path) -> int:
    listing = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-z", commit],
                             check=True, capture_output=True).stdout
    count = 0
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, path = entry.partition(b"\t")
        mode, kind, blob = meta.split()
        name = path.decode("utf-8", "surrogateescape")
        if kind != b"blob" or mode == b"120000" or not name.endswith(SUFFIXES):
            continue
        data = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "blob", blob.decode()],
                              capture_output=True)
        if data.returncode != 0:  # a blob the mirror does not hold (large files)
            print(f"  missing blob: {name}", file=sys.stderr)
            continue
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.stdout)
        count += 1
    return count


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", nargs="*", help="repository names (owner/name) to extract")
    args = ap.parse_args()
    for repo, commit in TREES.items():
        if args.only and repo not in args.only:
            continue
        out = args.out / repo.split("/")[1]
        if out.exists():
            print(f"{repo}: {out} exists, kept")
            continue
        n = extract(_git_dir(args.mirrors, repo), commit, out)
        print(f"{repo} @ {commit}: {n} files -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
