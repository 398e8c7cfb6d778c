"""Re-create the inputs of the real-jobs benchmark: the files of each repository at its
pinned commit, written under a work directory (default ``bench/realworld/jobs/.work``,
git-ignored). Nothing fetched is ever committed.

Where the files come from, in order:
1. a local bare mirror ``$PREFLIGHT_MIRRORS/<owner>+<name>/repo`` (default ``/work/.mirror``);
2. else ``git clone --filter=blob:none`` from ``https://github.com/<owner>/<name>`` (network,
   only when this script is run) and a checkout of the pinned commit.

Only text files under 2 MB below the job's ``paths`` are written (data, images and large
weights are neither needed nor read by preflight); a blob missing from a partial mirror is
skipped and counted.

    python bench/realworld/jobs/fetch.py            # every repository of manifest.json
"""

from __future__ import annotations

import json
import os
import posixpath
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"
WORK = Path(os.environ.get("PREFLIGHT_REALJOBS_WORK", HERE / ".work"))
MIRRORS = Path(os.environ.get("PREFLIGHT_MIRRORS", "/work/.mirror"))
_TEXT = (".py", ".sh", ".bash", ".sbatch", ".slurm", ".json", ".yaml", ".yml", ".toml", ".cfg", ".txt", ".md",
         ".ipynb", ".ini", ".config", ".conf")
_MAX = 2_000_000


def _git(git_dir: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], input=data, capture_output=True,
                          check=True).stdout


def _mirror(repo: str) -> Path:
    owner_name = repo.replace("/", "+")
    local = MIRRORS / owner_name / "repo"
    if (local / ".git").is_dir():  # a snapshot that arrives as a checkout's .git, not a bare repository
        return local / ".git"
    if local.is_dir():
        return local
    clone = WORK / "_clones" / owner_name
    if not clone.is_dir():
        clone.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "--bare", "--filter=blob:none", f"https://github.com/{repo}", str(clone)],
                       check=True)
    return clone


def materialize(repo: str, commit: str, paths: list[str], dest: Path,
                named: frozenset[str] = frozenset()) -> tuple[int, int]:
    """Write ``paths`` of ``repo`` at ``commit`` under ``dest``; (files written, skipped). Text files
    are chosen by suffix; a file in ``named`` (a launch script a job's invocation names, such as a
    Slurm batch file called ``launch_slurm.wilkes3``) is written whatever its suffix."""
    git_dir = _mirror(repo)
    listing = _git(git_dir, "ls-tree", "-r", "-l", commit, "--", *paths).decode()
    wanted: list[tuple[str, str]] = []
    for line in listing.splitlines():
        meta, _, path = line.partition("\t")
        parts = meta.split()
        if len(parts) < 4 or parts[1] != "blob":
            continue
        size = int(parts[3]) if parts[3].isdigit() else _MAX + 1
        if size > _MAX or not (path.lower().endswith(_TEXT) or path in named):
            continue
        wanted.append((parts[2], path))
    written = skipped = 0
    for sha, path in wanted:
        target = dest / path
        if target.is_file():
            written += 1
            continue
        try:
            blob = _git(git_dir, "cat-file", "blob", sha)
        except subprocess.CalledProcessError:
            skipped += 1  # not in this partial mirror
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob)
        written += 1
    return written, skipped


def job_dir(job: dict) -> Path:
    return WORK / job["repo"].replace("/", "+") / job["commit"][:12]


def named_script(job: dict) -> str | None:
    """The repository path of the file a job's invocation starts with (the script the user runs),
    or None when the invocation is a launcher command (it starts with ``--``)."""
    args = job["invocation"]
    if not args or args[0] == "--":
        return None
    return posixpath.normpath(posixpath.join(job["cwd"], args[0]))


def fetch_all(jobs: list[dict]) -> None:
    by_repo: dict[tuple[str, str], set[str]] = {}
    named: dict[tuple[str, str], set[str]] = {}
    for job in jobs:
        by_repo.setdefault((job["repo"], job["commit"]), set()).update(job["paths"])
        script = named_script(job)
        if script is not None:
            named.setdefault((job["repo"], job["commit"]), set()).add(script)
    for (repo, commit), paths in sorted(by_repo.items()):
        dest = WORK / repo.replace("/", "+") / commit[:12]
        n, skipped = materialize(repo, commit, sorted(paths), dest, frozenset(named.get((repo, commit), ())))
        print(f"{repo}@{commit[:12]}: {n} files" + (f", {skipped} missing from the mirror" if skipped else ""),
              file=sys.stderr)


def load_manifest() -> list[dict]:
    return json.loads(MANIFEST.read_text())["jobs"]


if __name__ == "__main__":
    fetch_all(load_manifest())
