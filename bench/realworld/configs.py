"""Real configs: run ``preflight validate`` over every JSON/YAML file of public repositories.

The repositories and their pinned commits are in ``configs_manifest.json``; the files are
re-created from a snapshot of each repository, never committed:

* ``--mirror DIR``: bare git directories as ``DIR/<owner>+<name>/repo`` (what the session's
  ``fetch`` tool makes under ``/work/.mirror``), or ``DIR/<owner>+<name>.git``;
* ``--clone``: ``git fetch --depth 1`` of each commit from GitHub into ``--work``.

Every ``.json``/``.yaml``/``.yml`` file of the commit (outside hidden folders, under 1 MiB) is
written to ``WORK/<owner>+<name>/`` and validated with one ``preflight validate --format json``
per repository. Each reported problem is matched against the hand triage in
``configs_labels.json`` (true / false, with the library behaviour that decides it); the
script prints the counts per repository, false problems per 100 configs, the problems not
triaged yet, and whether the known real problems (``must_find`` in the labels) are found.

    python bench/realworld/configs.py --mirror /work/.mirror [--work /tmp/rw-configs] [--json OUT]
        [--set tuning|held-out|held-out-2|held-out-3|held-out-4|held-out-5|held-out-6|held-out-7|held-out-8|held-out-9|held-out-10|held-out-11|held-out-12|held-out-13|held-out-14|held-out-15]

Each repository belongs to a set (``"set"`` in the manifest; ``tuning`` when absent, ``held-out``
for the older ``held_out: true``); ``--set`` runs one set alone, and the totals are also
printed per set.

Exit status: 0 when every problem is triaged, false problems <= 1 per 100 configs and every
``must_find`` problem is reported; 1 otherwise; 2 when a repository cannot be re-created.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SUFFIXES = (".json", ".yaml", ".yml")
# the project's Python files, markers and pin files come too: `validate` reads the @dataclass fields
# of the config's project (HfArgumentParser files hold the project's own argument fields) and the
# library releases it pins (requirements*.txt; environment.yml is a config file already; the `pip install`
# lines of shell scripts such as install.sh, read since held-out-7)
CONTEXT = (".py", ".sh")
MARKERS = ("pyproject.toml", "setup.py", "setup.cfg")
MAX_BYTES = 1 << 20


def _git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True).stdout


def _snapshot(repo: str, commit: str, mirror: Path | None, clone: bool, work: Path) -> Path:
    slug = repo.replace("/", "+")
    if mirror is not None:
        for candidate in (mirror / slug / "repo", mirror / f"{slug}.git", mirror / slug):
            if (candidate / "HEAD").exists():
                return candidate
    if not clone:
        raise SystemExit(f"no snapshot of {repo} under {mirror} (use --clone to fetch it from GitHub)")
    git_dir = work / "_git" / f"{slug}.git"
    if not (git_dir / "HEAD").exists():
        git_dir.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", "--bare", str(git_dir)], check=True)
    subprocess.run(["git", f"--git-dir={git_dir}", "fetch", "-q", "--depth", "1",
                    f"https://github.com/{repo}.git", commit], check=True)
    return git_dir


def _context_file(path: str) -> bool:
    """Project markers anywhere, and the pin files (``requirements*.txt``, ``Dockerfile``) that say which library
    release a config is for: ``validate`` reads them the way a user's checkout has them."""
    name = path.rsplit("/", 1)[-1]
    return name in MARKERS or name == "Dockerfile" or (name.startswith("requirements") and name.endswith(".txt"))


def recreate(repo: str, commit: str, git_dir: Path, out: Path) -> int:
    """Write the config files of ``repo`` at ``commit`` under ``out``; returns how many."""
    listing = _git(git_dir, "ls-tree", "-r", "-l", "-z", commit).decode("utf-8", "replace")
    count = 0
    for entry in listing.split("\0"):
        if not entry:
            continue
        meta, _, path = entry.partition("\t")
        parts = meta.split()
        config = path.lower().endswith(SUFFIXES)
        if len(parts) < 4 or parts[1] != "blob" or not (config or path.endswith(CONTEXT) or _context_file(path)):
            continue
        if any(p.startswith(".") for p in path.split("/")):
            continue
        size = int(parts[3]) if parts[3].isdigit() else 0
        if size > MAX_BYTES:
            continue
        try:
            blob = _git(git_dir, "cat-file", "blob", parts[2])
        except subprocess.CalledProcessError:
            continue  # the snapshot lacks this blob (its largest files may be absent)
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob)
        count += config
    (out / ".git").mkdir(exist_ok=True)  # a checkout's root, as validate finds a project
    return count


def validate(folder: Path) -> dict:
    proc = subprocess.run([sys.executable, "-m", "preflight", "validate", "--format", "json", str(folder)],
                          capture_output=True, text=True, cwd=folder)
    if proc.returncode not in (0, 1, 3):
        raise SystemExit(f"preflight validate failed on {folder} (exit {proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout)


def _key(repo: str, problem: dict, root: Path) -> tuple[str, str, int, str, str]:
    path = problem["path"]
    prefix = str(root) + "/"
    if path.startswith(prefix):
        path = path[len(prefix):]
    return (repo, path, problem.get("line") or 0, problem["code"], problem.get("key", ""))


def set_of(entry: dict) -> str:
    """The benchmark set of a manifest entry: ``set``, else held-out / tuning."""
    return entry.get("set") or ("held-out" if entry.get("held_out") else "tuning")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mirror", type=Path, default=None, help="folder of bare git snapshots")
    parser.add_argument("--clone", action="store_true", help="fetch missing commits from GitHub")
    parser.add_argument("--work", type=Path, default=Path("/tmp/rw-configs"), help="where the files are written")
    parser.add_argument("--json", type=Path, default=None, help="write every problem with its verdict here")
    parser.add_argument("--only", default=None, help="only this repository (owner/name)")
    parser.add_argument("--set", dest="set_name", default=None,
                        help="only the repositories of this set (tuning, held-out, held-out-2, held-out-3, held-out-4, held-out-5, held-out-6, held-out-7, held-out-8, held-out-9, held-out-10, held-out-11, held-out-12, held-out-13, held-out-14, held-out-15)")
    args = parser.parse_args(argv)

    manifest = json.loads((HERE / "configs_manifest.json").read_text())
    labels_doc = json.loads((HERE / "configs_labels.json").read_text())
    labels = {(x["repo"], x["path"], x["line"], x["code"], x["key"]): x for x in labels_doc["labels"]}
    must_find = [tuple(m) for m in labels_doc.get("must_find", [])]

    rows = []
    problems_out = []
    totals = {"files": 0, "checked": 0, "not_recognised": 0, "skipped": 0, "templates": 0, "unreadable": 0,
              "problems": 0, "true": 0, "false": 0, "untriaged": 0}
    for entry in manifest["repos"]:
        repo, commit = entry["repo"], entry["commit"]
        if args.only and repo != args.only:
            continue
        if args.set_name and set_of(entry) != args.set_name:
            continue
        git_dir = _snapshot(repo, commit, args.mirror, args.clone, args.work)
        folder = args.work / repo.replace("/", "+")
        if folder.exists():
            subprocess.run(["rm", "-rf", str(folder)], check=True)
        folder.mkdir(parents=True)
        n_files = recreate(repo, commit, git_dir, folder)
        doc = validate(folder) if n_files else {"files": [], "counts": {}}
        counts = doc.get("counts", {})
        row = {"repo": repo, "commit": commit, "set": set_of(entry), "files": n_files,
               "checked": counts.get("checked", 0), "not_recognised": counts.get("not_recognised", 0),
               "skipped": counts.get("skipped", 0),
               "templates": counts.get("templates", 0), "unreadable": counts.get("unreadable", 0),
               "kinds": {}, "problems": 0, "true": 0, "false": 0, "untriaged": 0}
        for report in doc.get("files", []):
            for k in report.get("kinds", []):
                row["kinds"][k["kind"]] = row["kinds"].get(k["kind"], 0) + 1
            for problem in report.get("problems", []):
                if problem["severity"] not in ("error", "warning"):
                    continue
                key = _key(repo, problem, folder)
                label = labels.get(key)
                verdict = label["verdict"] if label else "untriaged"
                row["problems"] += 1
                row[verdict if verdict in ("true", "false") else "untriaged"] += 1
                problems_out.append({"repo": repo, "commit": commit, "path": key[1], "line": key[2],
                                     "code": key[3], "key": key[4], "severity": problem["severity"],
                                     "message": problem["message"], "verdict": verdict,
                                     "why": label.get("why", "") if label else ""})
        for name in ("files", "checked", "not_recognised", "skipped", "templates", "unreadable", "problems",
                     "true", "false", "untriaged"):
            totals[name] += row[name]
        rows.append(row)

    head = ("files", "checked", "not_recognised", "skipped", "templates", "unreadable", "problems", "true", "false",
            "untriaged")
    print(f"{'repository':34} " + " ".join(f"{h[:9]:>9}" for h in head))
    for row in [*rows, {"repo": "total", **totals}]:
        print(f"{row['repo']:34} " + " ".join(f"{row[h]:9}" for h in head))
    sets = sorted({row["set"] for row in rows})
    if len(sets) > 1:
        for name in sets:
            sub = {h: sum(row[h] for row in rows if row["set"] == name) for h in head}
            print(f"{'set ' + name:34} " + " ".join(f"{sub[h]:9}" for h in head))
            print(f"  false problems per 100 checked configs in set {name}: "
                  f"{100.0 * sub['false'] / max(sub['checked'], 1):.2f} ({sub['false']} / {sub['checked']})")
    configs = max(totals["checked"], 1)
    per100 = 100.0 * totals["false"] / configs
    print(f"false problems per 100 checked configs: {per100:.2f} ({totals['false']} / {totals['checked']})")
    found = {(p["repo"], p["path"], p["line"], p["code"], p["key"]) for p in problems_out}
    ran = {row["repo"] for row in rows}
    missing = [m for m in must_find if m not in found and m[0] in ran]
    for m in missing:
        print(f"MISSED known real problem: {m}")
    lost = [k for k, x in labels.items() if x["verdict"] == "true" and k not in found and k[0] in ran]
    for k in lost:
        print(f"no longer reported (labelled true): {k}")
    for p in problems_out:
        if p["verdict"] == "untriaged":
            print(f"untriaged: {p['repo']} {p['path']}:{p['line']} {p['severity']} [{p['code']}] {p['message']}")
    if args.json is not None:
        args.json.write_text(json.dumps({"repos": rows, "totals": totals, "problems": problems_out}, indent=1) + "\n")
    ok = per100 <= 1.0 and not missing and not lost and totals["untriaged"] == 0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
