"""Robustness sweep: run the installed CLI on real inputs (never executing them) and record,
per run, the exit code, wall time, peak RSS, whether stderr carries a Python traceback or an
"internal error", and whether the output is a silent empty answer.

Inputs:
- every job of ``bench/realworld/jobs/manifest.json``, materialized under ``--jobs-work``
  (``<work>/<owner+name>/<commit[:12]>``, as ``bench/realworld/jobs/fetch.py`` lays it out):
  ``preflight audit`` on its invocation (launch script, or script + configs), and
  ``preflight validate`` on its config folders (the folders of the .json/.yaml files its
  invocation or launch script names; the job's folder when it names none);
- ``--repos N`` repositories of ``--mirror`` (bare snapshots, every k-th in name order):
  ``git archive HEAD | tar -x`` into ``--tmp``/<repo>, then ``preflight check <dir>`` and
  ``preflight validate <dir>``; the tree is deleted afterwards (nothing fetched is committed).

Each run goes through ``timeout 120`` and ``/usr/bin/time -v``. Results: one JSON line per run
(``--out``), and a summary table (``--table``).

    python bench/robustness/sweep.py --out bench/robustness/before.jsonl \
        --table bench/robustness/before.md [--only-jobs] [--only-repos] [--limit N] [--ids FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "bench/realworld/jobs/manifest.json"
CONFIG_EXT = (".json", ".yaml", ".yml")
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|internal error", re.I)
DOCUMENTED = {"audit": {0, 1, 2, 3}, "check": {0, 1, 2, 3}, "validate": {0, 1, 2, 3}}


PREFLIGHT: list[str] = []


def preflight_bin() -> str:
    if PREFLIGHT:
        return PREFLIGHT[0]
    cand = ROOT / ".venv/bin/preflight"
    return str(cand) if cand.exists() else "preflight"


def timed(cmd: list[str], cwd: Path, limit: int) -> dict:
    """Run ``cmd`` under timeout and /usr/bin/time -v; return rc, wall, peak RSS and output."""
    full = ["/usr/bin/time", "-v", "timeout", str(limit), *cmd]
    env = dict(os.environ, NO_COLOR="1", COLUMNS="200")
    env.pop("PREFLIGHT_OUTPUT_FORMAT", None)
    start = time.monotonic()
    proc = subprocess.run(full, cwd=cwd, capture_output=True, text=True, env=env,
                          errors="replace", stdin=subprocess.DEVNULL)
    wall = time.monotonic() - start
    stderr = proc.stderr
    rss = 0
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
    if m:
        rss = int(m.group(1))
    cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", stderr))
    cut = stderr.rfind("\tCommand being timed:")
    if cut >= 0:
        stderr = stderr[:cut]
    return {"rc": proc.returncode, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "rss_mib": round(rss / 1024, 1),
            "stdout": proc.stdout, "stderr": stderr}


def named_configs(job_root: Path, cwd: Path, invocation: list[str]) -> list[Path]:
    """Config files (.json/.yaml/.yml) the invocation names, or its launch script names."""
    tokens = list(invocation)
    first = invocation[0] if invocation and invocation[0] != "--" else None
    if first and first.endswith((".sh", ".bash", ".sbatch", ".slurm")) and (cwd / first).is_file():
        try:
            tokens += shlex.split((cwd / first).read_text(errors="replace"), comments=True)
        except ValueError:
            tokens += (cwd / first).read_text(errors="replace").split()
    found: list[Path] = []
    for tok in tokens:
        for part in re.split(r"[=,]", tok):
            if part.endswith(CONFIG_EXT):
                for base in (cwd, job_root):
                    p = (base / part).resolve()
                    if p.is_file() and str(p).startswith(str(job_root.resolve())) and p not in found:
                        found.append(p)
                        break
    return found


def silent(kind: str, res: dict, named: list[str]) -> str:
    """Why a run's answer is silently empty ('' when it is not)."""
    out = res["stdout"] + res["stderr"]
    if res["rc"] in (124, 137):
        return ""
    if kind in ("audit", "check") and re.search(r"\(0 files?\)", out) \
            and "no Python script of the job" not in out and "\n  - read " not in out:
        return "0 files analysed"
    if kind == "validate" and re.search(r"Validated 0 files", out) and "not recognised" not in out:
        return "validated 0 files"
    missing = [n for n in named if Path(n).name not in out]
    if kind == "audit" and missing:
        return "not mentioned: " + ", ".join(missing)
    return ""


def record(kind: str, target: str, cmd: list[str], cwd: Path, res: dict, named: list[str]) -> dict:
    err = res["stderr"]
    return {
        "kind": kind, "target": target, "cmd": " ".join(shlex.quote(c) for c in cmd), "cwd": str(cwd),
        "rc": res["rc"], "wall_s": res["wall_s"], "cpu_s": res["cpu_s"], "rss_mib": res["rss_mib"],
        "traceback": bool(TRACEBACK.search(err) or TRACEBACK.search(res["stdout"])),
        "timeout": res["rc"] in (124, 137),
        "bad_exit": res["rc"] not in DOCUMENTED[kind] and res["rc"] not in (124, 137),
        "silent": silent(kind, res, named), "named": named,
        "stderr_tail": err[-600:], "stdout_tail": res["stdout"][-400:],
    }


def job_runs(args, jobs: list[dict], emit) -> None:
    pf = preflight_bin()
    work = Path(args.jobs_work)
    for job in jobs:
        root = work / job["repo"].replace("/", "+") / job["commit"][:12]
        cwd = root / job["cwd"]
        if not cwd.is_dir():
            emit({"kind": "audit", "target": job["id"], "rc": None, "error": f"not materialized: {cwd}"})
            continue
        inv = list(job["invocation"])
        cut = inv.index("--") if "--" in inv else len(inv)
        cmd = [pf, "audit", *inv[:cut], "-j", "1", *inv[cut:]]
        named = [t for t in inv[:cut] if (cwd / t).is_file()]
        emit(record("audit", job["id"], cmd, cwd, timed(cmd, cwd, args.limit), named))
        configs = named_configs(root, cwd, inv)
        folders = sorted({str(p.parent) for p in configs}) or [str(cwd)]
        vcmd = [pf, "validate", *folders]
        emit(record("validate", job["id"], vcmd, cwd, timed(vcmd, cwd, args.limit), []))


def extract(gitdir: Path, dest: Path) -> str:
    """Write HEAD's tree of a bare snapshot under ``dest`` (``git archive`` stops at the first
    blob the snapshot lacks; this skips those, as the mirrors leave their largest files out)."""
    git = ["git", f"--git-dir={gitdir}"]
    ls = subprocess.run([*git, "ls-tree", "-r", "-z", "HEAD"], capture_output=True)
    if ls.returncode != 0:
        return ls.stderr.decode(errors="replace")
    entries: list[tuple[str, str]] = []
    for item in ls.stdout.split(b"\0"):
        if not item:
            continue
        meta, raw = item.split(b"\t", 1)
        mode, typ, blob = meta.split()
        if typ == b"blob" and mode in (b"100644", b"100755"):
            entries.append((blob.decode(), raw.decode(errors="replace")))
    proc = subprocess.Popen([*git, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    for sha, path in entries:
        proc.stdin.write(sha.encode() + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            continue
        data = proc.stdout.read(int(header[2]))
        proc.stdout.read(1)
        target = dest / path
        if ".." in Path(path).parts:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    proc.stdin.close()
    proc.wait()
    return ""


def repo_runs(args, emit) -> None:
    pf = preflight_bin()
    mirror = Path(args.mirror)
    names = sorted(p.name for p in mirror.iterdir() if p.is_dir() and not p.name.startswith("."))
    step = max(1, len(names) // args.repos)
    picked = names[::step][: args.repos]
    tmp = Path(args.tmp)
    tmp.mkdir(parents=True, exist_ok=True)
    for name in picked:
        gitdir = next((p for p in [mirror / name / "repo", mirror / name] if (p / "HEAD").exists()), None)
        if gitdir is None:
            gitdir = next((p.parent for p in (mirror / name).rglob("HEAD") if (p.parent / "objects").is_dir()), None)
        if gitdir is None:
            emit({"kind": "check", "target": name, "rc": None, "error": "no git dir"})
            continue
        dest = tmp / name
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        err = extract(gitdir, dest)
        if err:
            emit({"kind": "check", "target": name, "rc": None, "error": "extract failed: " + err[-200:]})
            shutil.rmtree(dest, ignore_errors=True)
            continue
        try:
            for kind, extra in (("check", ["-j", "1"]), ("validate", [])):
                cmd = [pf, kind, ".", *extra]
                emit(record(kind, name, cmd, dest, timed(cmd, dest, args.limit), []))
        finally:
            shutil.rmtree(dest, ignore_errors=True)


def summary(rows: list[dict]) -> str:
    ran = [r for r in rows if r.get("rc") is not None]
    lines = ["| inputs | runs | tracebacks | exit code outside the table | timeouts (>120 s wall) | > 60 s CPU | max CPU s | max wall s | max RSS MiB | silent empty answers | not run |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for label, pick in (("jobs: audit", lambda r: r["kind"] == "audit" and "/" not in r["target"] and not r.get("repo")),
                        ("jobs: validate", lambda r: r["kind"] == "validate" and not r.get("repo")),
                        ("repos: check", lambda r: r["kind"] == "check"),
                        ("repos: validate", lambda r: r["kind"] == "validate" and r.get("repo"))):
        sel = [r for r in ran if pick(r)]
        if not sel:
            continue
        lines.append("| {} | {} | {} | {} | {} | {} | {:.1f} | {:.1f} | {:.0f} | {} | {} |".format(
            label, len(sel), sum(r["traceback"] for r in sel), sum(r["bad_exit"] for r in sel),
            sum(r["timeout"] for r in sel), sum(r.get("cpu_s", 0) > 60 for r in sel),
            max(r.get("cpu_s", 0) for r in sel), max(r["wall_s"] for r in sel), max(r["rss_mib"] for r in sel), sum(bool(r["silent"]) for r in sel),
            sum(1 for r in rows if r.get("rc") is None and pick(r))))
    rcs: dict[str, dict[int, int]] = {}
    for r in ran:
        rcs.setdefault(r["kind"], {}).setdefault(r["rc"], 0)
        rcs[r["kind"]][r["rc"]] += 1
    lines.append("")
    lines.append("Exit codes: " + "; ".join(f"{k}: " + ", ".join(f"{c}x{n}" for c, n in sorted(v.items()))
                                            for k, v in sorted(rcs.items())))
    bad = [r for r in ran if r["traceback"] or r["bad_exit"] or r["timeout"] or r["silent"]
           or r.get("cpu_s", 0) > 60 or r["rss_mib"] > 1024]
    if bad:
        lines += ["", "| kind | input | rc | wall s | CPU s | RSS MiB | problem |", "|---|---|---|---|---|---|---|"]
        for r in bad:
            why = [w for w, on in (("traceback", r["traceback"]), ("bad exit", r["bad_exit"]), ("timeout", r["timeout"]),
                                   ("> 60 s CPU", r.get("cpu_s", 0) > 60), ("> 1 GiB", r["rss_mib"] > 1024)) if on]
            if r["silent"]:
                why.append("silent: " + r["silent"])
            lines.append(f"| {r['kind']} | {r['target']} | {r['rc']} | {r['wall_s']} | {r.get('cpu_s')} | {r['rss_mib']} "
                         f"| {'; '.join(why)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs-work", default="/work/wt/jobswork/all")
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--tmp", default="/tmp/robust48")
    ap.add_argument("--repos", type=int, default=60)
    ap.add_argument("--limit", type=int, default=120)
    ap.add_argument("--preflight", default="", help="the preflight command to run (default: this checkout's .venv)")
    ap.add_argument("--only-jobs", action="store_true")
    ap.add_argument("--only-repos", action="store_true")
    ap.add_argument("--ids", help="file with job ids / repo names to run (one a line)")
    ap.add_argument("--out", default="bench/robustness/sweep.jsonl")
    ap.add_argument("--table", default="")
    ap.add_argument("--summarise", action="store_true", help="only re-render --table from --out")
    args = ap.parse_args(argv)
    out = Path(args.out)
    if args.preflight:
        PREFLIGHT.append(args.preflight)
    if args.summarise:
        rows = [json.loads(x) for x in out.read_text().splitlines() if x.strip()]
        for r in rows:  # re-derive with the current detector (the tails hold the last lines)
            # the stored tails are short: re-derive only what the last lines decide
            if r.get("rc") is not None and (r["kind"] == "validate" or r.get("silent") == "0 files analysed"):
                r["silent"] = silent(r["kind"], {"rc": r["rc"], "stdout": r["stdout_tail"], "stderr": r["stderr_tail"]},
                                     [])
        text = summary(rows)
        if args.table:
            Path(args.table).write_text(text)
        print(text)
        return 0
    rows = []
    fh = out.open("w")

    def emit(row: dict) -> None:
        if row.get("kind") in ("check",) or (row.get("kind") == "validate" and "/" not in row.get("target", "")
                                            and row.get("cwd", "").startswith(args.tmp)):
            row["repo"] = True
        rows.append(row)
        fh.write(json.dumps(row) + "\n")
        fh.flush()
        flag = " ".join(k for k in ("traceback", "bad_exit", "timeout") if row.get(k)) + (" silent" if row.get("silent") else "")
        print(f"{row.get('kind')} {row.get('target')} rc={row.get('rc')} {row.get('wall_s')}s "
              f"cpu={row.get('cpu_s')}s {row.get('rss_mib')}MiB {flag}",
              file=sys.stderr, flush=True)

    ids = set(Path(args.ids).read_text().split()) if args.ids else None
    if not args.only_repos:
        jobs = json.loads(MANIFEST.read_text())["jobs"]
        if ids is not None:
            jobs = [j for j in jobs if j["id"] in ids]
        # interleaved (every 4th first): a run cut short is still a spread sample of the sets
        jobs = [j for k in range(4) for j in jobs[k::4]]
        job_runs(args, jobs, emit)
    if not args.only_jobs and ids is None:
        repo_runs(args, emit)
    fh.close()
    text = summary(rows)
    if args.table:
        Path(args.table).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
