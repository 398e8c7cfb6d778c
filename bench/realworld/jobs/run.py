"""The real-jobs benchmark: run ``preflight audit`` on each job of ``manifest.json`` as a user
launches it, and compare the TrainingPlan with the expert truth.

    python bench/realworld/jobs/run.py                 # the development set
    python bench/realworld/jobs/run.py --set held-out  # the held-out jobs (report, do not tune on)
    python bench/realworld/jobs/run.py --set held-out-2  # the second held-out set (labelled later)
    python bench/realworld/jobs/run.py --set held-out-3  # the third: repositories new to the benchmark
    python bench/realworld/jobs/run.py --set held-out-4  # the fourth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-5  # the fifth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-6  # the sixth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-7  # the seventh: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-8  # the eighth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-9  # the ninth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-10  # the tenth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-11  # the eleventh: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-12  # the twelfth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-13  # the thirteenth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-14  # the fourteenth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-15  # the fifteenth: eight more new repositories
    python bench/realworld/jobs/run.py --set held-out-16  # the sixteenth: ten more new repositories
    python bench/realworld/jobs/run.py --set held-out-17  # the seventeenth: eleven more new repositories
    python bench/realworld/jobs/run.py --set held-out-18  # the eighteenth: ten more new repositories
    python bench/realworld/jobs/run.py --set held-out-19  # the nineteenth: eleven more new repositories
    python bench/realworld/jobs/run.py --set held-out-20  # the twentieth: ten more new repositories
    python bench/realworld/jobs/run.py --set held-out-21  # the twenty-first: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-22  # the twenty-second: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-23  # the twenty-third: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-24  # the twenty-fourth: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-25  # the twenty-fifth: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-26  # the twenty-sixth: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-27  # the twenty-seventh: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-28  # the twenty-eighth: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-45  # the forty-fifth: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-46  # the forty-sixth: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-47  # the forty-seventh: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-48  # the forty-eighth: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-49  # the forty-ninth: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-50  # the fiftieth: twelve more new repositories
    python bench/realworld/jobs/run.py --set held-out-51  # the fifty-first: more new repositories
    python bench/realworld/jobs/run.py --set all --json results.json
    python bench/realworld/jobs/run.py --job nanogpt-gpt2-ddp -v

Per job: whether preflight ran from the job's natural invocation (exit code 0 or 1 and a
plan came back), then each knowable field: ``right``, ``wrong`` (with the confidence of the
value preflight would use) or ``missing``. A field is right when the winning value equals
the truth (``any_of`` lists accepted values; ``rel_tol`` allows a relative error for
parameter counts). Totals at the end. Inputs are re-created by ``fetch.py`` at run time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fetch  # noqa: E402


def _winner(plan, field: str):
    fact = plan.resolve(field)
    return None if fact is None else fact


def _same_seq(wanted, value, truth: dict) -> bool:
    """A list truth (say LoRA ``target_modules``) against the plan's list or tuple: the same
    elements, order aside (a set of module names)."""
    if len(wanted) != len(value):
        return False
    rest = list(value)
    for w in wanted:
        hit = next((i for i, v in enumerate(rest) if _same({**truth, "any_of": None, "value": w}, v)), None)
        if hit is None:
            return False
        rest.pop(hit)
    return True


def _same(truth: dict, value) -> bool:
    wanted = truth.get("any_of") or [truth["value"]]
    for w in wanted:
        if isinstance(w, (list, tuple)) or isinstance(value, (list, tuple)):
            if isinstance(w, (list, tuple)) and isinstance(value, (list, tuple)) and _same_seq(w, value, truth):
                return True
            continue
        if isinstance(w, bool) or isinstance(value, bool):
            if w is value:
                return True
            continue
        if isinstance(w, (int, float)) and isinstance(value, (int, float)):
            tol = float(truth.get("rel_tol", 0))
            if abs(value - w) <= tol * abs(w) + 1e-9:
                return True
            continue
        if isinstance(w, str) and isinstance(value, str) and w.lower() == value.lower():
            return True
    return False


def audit_call(job: dict, preflight: list[str], gpu: str) -> tuple[Path, list[str], dict[str, str]]:
    """The folder, command line and environment that audit ``job`` as a user launches it: its
    invocation with ``--emit-plan json --gpu GPU`` before any ``--``, plain uncoloured text."""
    cwd = fetch.job_dir(job) / job["cwd"]
    args = list(job["invocation"])
    cut = args.index("--") if "--" in args else len(args)
    cmd = [*preflight, "audit", *args[:cut], "--emit-plan", "json", "--gpu", gpu, *args[cut:]]
    env = dict(os.environ, NO_COLOR="1")
    env.pop("PREFLIGHT_OUTPUT_FORMAT", None)
    return cwd, cmd, env


def run_job(job: dict, preflight: list[str], gpu: str, timeout: float) -> dict:
    from preflight.plan import TrainingPlan

    cwd, cmd, env = audit_call(job, preflight, gpu)
    result: dict = {"id": job["id"], "held_out": job["held_out"], "fields": {}, "exit": None, "error": ""}
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        result["error"] = f"timed out after {timeout:.0f}s"
        proc = None
    plan = None
    if proc is not None:
        result["exit"] = proc.returncode
        result["stderr"] = proc.stderr[-2000:]
        try:
            plan = TrainingPlan.from_dict(json.loads(proc.stdout))
        except (ValueError, json.JSONDecodeError) as exc:
            result["error"] = f"no plan: {exc}; stderr: {proc.stderr.strip()[-300:]}"
    result["runnable"] = plan is not None and result["exit"] in (0, 1)
    for field, truth in job["truth"].items():
        fact = _winner(plan, field) if plan is not None else None
        if fact is None:
            result["fields"][field] = {"status": "missing", "truth": truth["value"]}
            continue
        status = "right" if _same(truth, fact.value) else "wrong"
        result["fields"][field] = {"status": status, "truth": truth["value"], "got": fact.value,
                                   "confidence": fact.confidence, "source": fact.source.to_dict()}
    if plan is not None:
        result["notes"] = list(plan.notes)
    return result


def summarise(results: list[dict]) -> dict:
    tot = {"jobs": len(results), "runnable": 0, "fields": 0, "right": 0, "wrong": 0, "wrong_high": 0,
           "missing": 0, "model_jobs": 0, "model_found": 0}
    for r in results:
        tot["runnable"] += bool(r["runnable"])
        for _field, f in r["fields"].items():
            tot["fields"] += 1
            tot[f["status"]] += 1
            if f["status"] == "wrong" and f.get("confidence") == "high":
                tot["wrong_high"] += 1
        model = [f for k, f in r["fields"].items() if k in ("model.ref", "model.num_parameters")]
        if model:
            tot["model_jobs"] += 1
            tot["model_found"] += any(f["status"] == "right" for f in model)
    return tot


def render(results: list[dict], verbose: bool) -> str:
    lines = [f"{'JOB':34} {'RUN':4} {'RIGHT':>5} {'WRONG':>5} {'MISS':>5}  WRONG/MISSING"]
    for r in results:
        counts = {s: sum(1 for f in r["fields"].values() if f["status"] == s) for s in ("right", "wrong", "missing")}
        bad = []
        for field, f in r["fields"].items():
            if f["status"] == "wrong":
                bad.append(f"{field}={f['got']!r}!={f['truth']!r}({f['confidence']})")
            elif f["status"] == "missing":
                bad.append(f"{field}?")
        tag = "yes" if r["runnable"] else "NO"
        lines.append(f"{r['id'] + ('*' if r['held_out'] else ''):34} {tag:4} {counts['right']:5} {counts['wrong']:5} "
                     f"{counts['missing']:5}  {' '.join(bad)}")
        if verbose:
            if r.get("error"):
                lines.append(f"    error: {r['error']}")
            for note in r.get("notes", []):
                lines.append(f"    note: {note}")
    t = summarise(results)
    pct = 100.0 * t["right"] / t["fields"] if t["fields"] else 0.0
    lines.append("")
    lines.append(f"jobs {t['jobs']}, runnable {t['runnable']}; fields {t['fields']}: right {t['right']} ({pct:.1f}%), "
                 f"wrong {t['wrong']} ({t['wrong_high']} at high confidence), missing {t['missing']}; "
                 f"model found in {t['model_found']} of {t['model_jobs']} jobs")
    lines.append("(* held-out job)")
    return "\n".join(lines) + "\n"


#: the numbered held-out sets, in order: a job of set N has a note starting "<ordinal> held-out set"
ORDINALS = ("second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
            "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth",
            "nineteenth", "twentieth", "twenty-first", "twenty-second", "twenty-third", "twenty-fourth", "twenty-fifth",
            "twenty-sixth", "twenty-seventh", "twenty-eighth", "twenty-ninth", "thirtieth",
            "thirty-first", "thirty-second", "thirty-third", "thirty-fourth", "thirty-fifth",
            "thirty-sixth", "thirty-seventh", "thirty-eighth", "thirty-ninth",
            "fortieth", "forty-first", "forty-second", "forty-third", "forty-fourth",
            "forty-fifth", "forty-sixth", "forty-seventh", "forty-eighth", "forty-ninth",
            "fiftieth", "fifty-first")
SETS = ("dev", "held-out", *(f"held-out-{n}" for n in range(2, len(ORDINALS) + 2)))


def set_of(job: dict) -> str:
    """The set a job belongs to: ``dev``, ``held-out`` (the first) or ``held-out-N``."""
    note = job.get("note", "")
    for n, word in enumerate(ORDINALS, start=2):
        if note.startswith(f"{word} held-out set"):
            return f"held-out-{n}"
    return "held-out" if job["held_out"] else "dev"


def by_set(jobs: list[dict], results: list[dict]) -> str:
    """One line per set (right fields, wrong, wrong at high, model found) for ``--set all``."""
    lines = ["", f"{'SET':12} {'JOBS':>4} {'RIGHT':>11} {'WRONG':>5} {'HIGH':>4} {'MODEL':>7}"]
    for name in SETS:
        mine = [r for j, r in zip(jobs, results) if set_of(j) == name]
        if not mine:
            continue
        t = summarise(mine)
        pct = 100.0 * t["right"] / t["fields"] if t["fields"] else 0.0
        lines.append(f"{name:12} {t['jobs']:4} {t['right']:>4}/{t['fields']:<4} {pct:5.1f}% {t['wrong']:5} "
                     f"{t['wrong_high']:4} {t['model_found']:>3}/{t['model_jobs']:<3}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=(*SETS, "all"), default="dev",
                    help="dev: the jobs the adapters were written with; held-out: the first held-out set; "
                         "held-out-N: the N-th, each labelled later from repositories new to the benchmark "
                         "(see docs/realworld.md); all: every job, with a line per set")
    ap.add_argument("--job", action="append", default=[], help="only this job id (repeatable)")
    ap.add_argument("--gpu", default=None)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--json", type=Path, help="write the per-job results here")
    ap.add_argument("--no-fetch", action="store_true", help="use the files already under the work directory")
    ap.add_argument("--preflight", help="the command that runs preflight (default: this Python's -m preflight), "
                                        "e.g. another checkout for a baseline")
    ap.add_argument("--summary-only", action="store_true", help="print the totals only (for the held-out set)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    manifest = json.loads(fetch.MANIFEST.read_text())
    jobs = manifest["jobs"]
    if args.job:
        jobs = [j for j in jobs if j["id"] in args.job]
    elif args.set != "all":
        jobs = [j for j in jobs if set_of(j) == args.set]
    if not args.no_fetch:
        fetch.fetch_all(jobs)
    preflight = args.preflight.split() if args.preflight else [sys.executable, "-m", "preflight"]
    results = [run_job(j, preflight, args.gpu or manifest.get("gpu", "a100-80gb"), args.timeout) for j in jobs]
    text = render(results, args.verbose)
    sys.stdout.write(text.splitlines()[-2] + "\n" if args.summary_only else text)
    if args.set == "all" and not args.job:
        sys.stdout.write(by_set(jobs, results))
    if args.json:
        args.json.write_text(json.dumps({"summary": summarise(results), "jobs": results}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
