"""Run the rules of issue 18 (PF414-PF426 code rules, PF508-PF516 plan rules) over real
repositories, the way docs/corpus.md's "Issue-18 rules on real code" table was made.

1. ``corpus``: re-create every .py/.ipynb/.json/.yaml/.yml/.sh/.toml/.cfg file under 4 MiB
   of each repository of ``newrules_repos.txt`` (owner/name commit) from the bare mirrors
   (``$PREFLIGHT_MIRRORS/<owner>+<name>/repo``, default ``/work/.mirror``; a blob missing from
   a partial mirror is skipped) under ``WORK/corpus/<name>/``. Nothing fetched is committed.
2. ``check``: ``preflight check corpus --select <the rules> --no-cache --format json -j 2``.
3. ``audit``: for every job of ``jobs/manifest.json`` (files re-created by ``jobs/fetch.py``),
   ``preflight audit <invocation> --select <the plan and code rules> --format json`` from
   the job's folder, as the real-jobs benchmark runs it.

4. ``launchers``: every shell script of the corpus that runs python/torchrun/deepspeed/
   accelerate: ``preflight audit LAUNCHER --select <rules> --format json`` from its folder.
5. ``configs``: every JSON/YAML file of the corpus (outside tests and .github) that names a
   key one of the plan rules reads: ``preflight audit --config FILE --select <rules>``.

    python bench/realworld/newrules.py corpus|check|audit|launchers|configs [--work /tmp/dethunt]
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
REPOS = HERE / "newrules_repos.txt"
MIRRORS = Path(os.environ.get("PREFLIGHT_MIRRORS", "/work/.mirror"))
EXT = (".py", ".ipynb", ".yaml", ".yml", ".json", ".sh", ".toml", ".cfg")
RULES = ",".join([f"PF{n}" for n in range(414, 427)] + [f"PF{n}" for n in range(508, 517)])


def corpus(work: Path, repos: Path = REPOS, ext: tuple = EXT, max_bytes: int = 4 << 20) -> None:
    """Re-create the files of ``repos`` (``owner/name commit`` lines) whose name ends in ``ext`` and whose
    size is under ``max_bytes`` from the bare mirrors, under ``WORK/corpus/<name>/``."""
    for line in repos.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        repo, commit = line.split()[:2]
        git_dir = MIRRORS / repo.replace("/", "+") / "repo"
        tree = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-l", commit],
                              capture_output=True, text=True, check=True).stdout
        want = []
        for row in tree.splitlines():
            meta, path = row.split("\t", 1)
            _mode, kind, sha, size = meta.split()
            if kind == "blob" and path.endswith(ext) and size.isdigit() and int(size) < max_bytes:
                want.append((sha, path))
        proc = subprocess.Popen(["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        written = 0
        for sha, path in want:
            proc.stdin.write((sha + "\n").encode())
            proc.stdin.flush()
            head = proc.stdout.readline().decode().split()
            if len(head) < 3 or head[1] == "missing":
                continue
            data = proc.stdout.read(int(head[2]))
            proc.stdout.read(1)
            dest = work / "corpus" / repo.split("/")[1] / path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            written += 1
        proc.stdin.close()
        proc.wait()
        print(f"{repo}@{commit[:12]}: {written} of {len(want)} files", file=sys.stderr)


def check(work: Path, out: Path) -> int:
    cmd = [sys.executable, "-m", "preflight", "check", "corpus", "--select", RULES, "--no-cache",
           "--format", "json", "-j", "2", "-o", str(out)]
    return subprocess.run(cmd, cwd=work).returncode


def audit(out: Path) -> None:
    sys.path.insert(0, str(HERE / "jobs"))
    import fetch

    jobs = fetch.load_manifest()
    fetch.fetch_all(jobs)
    results = []
    for job in jobs:
        args = list(job["invocation"])
        cut = args.index("--") if "--" in args else len(args)
        cmd = [sys.executable, "-m", "preflight", "audit", *args[:cut], "--select", RULES, "--no-cache",
               "--format", "json", *args[cut:]]
        proc = subprocess.run(cmd, cwd=fetch.job_dir(job) / job["cwd"], capture_output=True, text=True,
                              timeout=300, env=dict(os.environ, NO_COLOR="1"))
        try:
            findings = json.loads(proc.stdout).get("findings", [])
        except json.JSONDecodeError:
            findings = [{"error": proc.stderr[-500:]}]
        results.append({"id": job["id"], "repo": job["repo"], "commit": job["commit"], "cwd": job["cwd"],
                        "exit": proc.returncode, "findings": findings})
        print(f"{job['id']}: exit {proc.returncode}, {len(findings)} findings", file=sys.stderr)
    out.write_text(json.dumps(results, indent=1))


LAUNCH = re.compile(r"\b(python3?|torchrun|deepspeed|accelerate\s+launch)\b")
CONFIG_KEYS = re.compile(r"nvme|_target_|shuffle|fp16|\"auto\"|: auto|max_grad_norm|gradient_clipping|"
                         r"load_best_model_at_end|use_distributed_sampler|[Ss]oftmax|[Ss]igmoid")


def _one(job: tuple[str, list[str]]) -> dict:
    cwd, args = job
    cmd = [sys.executable, "-m", "preflight", "audit", *args, "--select", RULES, "--no-cache", "--format", "json"]
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, NO_COLOR="1"))
    except subprocess.TimeoutExpired:
        return {"cwd": cwd, "args": args, "exit": None, "findings": [], "error": "timeout"}
    try:
        findings = json.loads(proc.stdout).get("findings", [])
        error = ""
    except json.JSONDecodeError:
        findings, error = [], proc.stderr[-300:]
    return {"cwd": cwd, "args": args, "exit": proc.returncode, "findings": findings, "error": error}


def many(work: Path, out: Path, what: str) -> None:
    from multiprocessing import Pool

    root = work / "corpus"
    jobs = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or "/tests/" in rel or "/.github/" in rel or "/test/" in rel:
            continue
        if what == "launchers" and path.suffix == ".sh":
            text = path.read_text(errors="replace")
            if LAUNCH.search(text):
                jobs.append((str(path.parent), [path.name]))
        elif what == "configs" and path.suffix in (".json", ".yaml", ".yml") and path.stat().st_size < 1 << 20:
            text = path.read_text(errors="replace")
            if CONFIG_KEYS.search(text):
                jobs.append((str(path.parent), ["--config", path.name]))
    print(f"{len(jobs)} audits", file=sys.stderr)
    with Pool(2) as pool:
        results = pool.map(_one, jobs, chunksize=4)
    out.write_text(json.dumps(results, indent=1))
    found = sum(len(r["findings"]) for r in results)
    print(f"{len(results)} audits, {found} findings, {sum(1 for r in results if r['error'])} without a report",
          file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("corpus", "check", "audit", "launchers", "configs"))
    ap.add_argument("--work", type=Path, default=Path("/tmp/preflight-newrules"))
    ap.add_argument("--out", type=Path, help="JSON output (default WORK/<what>.json)")
    ap.add_argument("--rules", help="comma-separated rule codes to select instead of the issue-18 set")
    args = ap.parse_args(argv)
    if args.rules:
        global RULES
        RULES = args.rules
    args.work.mkdir(parents=True, exist_ok=True)
    out = args.out or args.work / f"{args.what}.json"
    if args.what == "corpus":
        corpus(args.work)
    elif args.what == "check":
        return check(args.work, out)
    elif args.what == "audit":
        audit(out)
    else:
        many(args.work, out, args.what)
    return 0


if __name__ == "__main__":
    sys.exit(main())
