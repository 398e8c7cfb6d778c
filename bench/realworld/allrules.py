"""Run ALL code rules (``preflight check``) over real repositories and tabulate the findings
per rule, the way docs/corpus.md's "Rules on real code (hunt43)" table was made.

1. ``corpus``: re-create every .py/.yaml/.yml/.json/.sh/.toml/.cfg file under 1 MiB of each
   repository of ``allrules_repos.txt`` (``owner/name commit``; ``--repos FILE`` for another list, such as
   ``allrules_repos_hunt44.txt``) from the bare mirrors
   (``$PREFLIGHT_MIRRORS/<owner>+<name>/repo``, default ``/work/.mirror``; a blob missing from a
   partial mirror is skipped) under ``WORK/corpus/<name>/``; with ``--pins`` also every
   ``*requirements.txt`` (the versions a project pins, which the config rules read: a clone has
   them). Nothing fetched is committed.
2. ``check``: ``preflight check corpus --no-cache --format json -j 2 -o WORK/check.json``.
3. ``table``: findings per rule and severity (count, files) from ``WORK/check.json``;
   ``--list PFnnn`` prints that rule's findings (file:line, severity, message).

    python bench/realworld/allrules.py corpus|check|table [--work /tmp/hunt43] [--repos FILE] [--pins] [--list PF123]
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import newrules  # the mirror re-creation both hunts share

HERE = Path(__file__).resolve().parent
REPOS = HERE / "allrules_repos.txt"
EXT = (".py", ".yaml", ".yml", ".json", ".sh", ".toml", ".cfg")


PINS = ("requirements.txt",)  # the pin files a clone holds: the config rules read the versions a project pins


def corpus(work: Path, repos: Path = REPOS, pins: bool = False) -> None:
    newrules.corpus(work, repos, EXT, 1 << 20)
    if pins:
        newrules.corpus(work, repos, PINS, 1 << 20)  # the same re-creation, other repositories, files under 1 MiB


def check(work: Path, out: Path) -> int:
    cmd = [sys.executable, "-m", "preflight", "check", "corpus", "--no-cache", "--format", "json",
           "-j", "2", "-o", str(out)]
    return subprocess.run(cmd, cwd=work).returncode


def table(out: Path, listing: str | None) -> None:
    findings = json.loads(out.read_text()).get("findings", [])
    count: collections.Counter[tuple[str, str]] = collections.Counter()
    files: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    for f in findings:
        code, sev = f.get("code", "?"), f.get("severity", "?")
        path = f.get("path") or f.get("file") or "?"
        if listing:
            if code == listing:
                print(f"{path}:{f.get('line')}: {sev}: {f.get('message', '')[:200]}")
            continue
        count[(code, sev)] += 1
        files[(code, sev)].add(path)
    if listing:
        return
    print("| rule | severity | findings | files |")
    print("|---|---|---|---|")
    for code, sev in sorted(count):
        print(f"| {code} | {sev} | {count[(code, sev)]} | {len(files[(code, sev)])} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("corpus", "check", "table"))
    ap.add_argument("--work", type=Path, default=Path("/tmp/hunt43"))
    ap.add_argument("--repos", type=Path, default=REPOS,
                    help="owner/name commit list (default allrules_repos.txt; a relative name is looked up here)")
    ap.add_argument("--pins", action="store_true", help="also re-create the *requirements.txt pin files")
    ap.add_argument("--out", type=Path, help="JSON output (default WORK/check.json)")
    ap.add_argument("--list", dest="listing", help="print the findings of this rule code")
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    out = args.out or args.work / "check.json"
    if args.what == "corpus":
        repos = args.repos if args.repos.is_absolute() or args.repos.exists() else HERE / args.repos
        corpus(args.work, repos, args.pins)
    elif args.what == "check":
        return check(args.work, out)
    else:
        table(out, args.listing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
