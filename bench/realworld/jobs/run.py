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


def _same(truth: dict, value) -> bool:
    wanted = truth.get("any_of") or [truth["value"]]
    for w in wanted:
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


def run_job(job: dict, preflight: list[str], gpu: str, timeout: float) -> dict:
    from preflight.plan import TrainingPlan

    cwd = fetch.job_dir(job) / job["cwd"]
    args = list(job["invocation"])
    cut = args.index("--") if "--" in args else len(args)
    cmd = [*preflight, "audit", *args[:cut], "--emit-plan", "json", "--gpu", gpu, *args[cut:]]
    env = dict(os.environ, NO_COLOR="1")
    env.pop("PREFLIGHT_OUTPUT_FORMAT", None)
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


def _second(job: dict) -> bool:
    return job.get("note", "").startswith("second held-out set")


def _third(job: dict) -> bool:
    return job.get("note", "").startswith("third held-out set")


def _fourth(job: dict) -> bool:
    return job.get("note", "").startswith("fourth held-out set")


def _fifth(job: dict) -> bool:
    return job.get("note", "").startswith("fifth held-out set")


def _sixth(job: dict) -> bool:
    return job.get("note", "").startswith("sixth held-out set")


def _seventh(job: dict) -> bool:
    return job.get("note", "").startswith("seventh held-out set")


def _eighth(job: dict) -> bool:
    return job.get("note", "").startswith("eighth held-out set")


def _ninth(job: dict) -> bool:
    return job.get("note", "").startswith("ninth held-out set")


def _tenth(job: dict) -> bool:
    return job.get("note", "").startswith("tenth held-out set")


def _eleventh(job: dict) -> bool:
    return job.get("note", "").startswith("eleventh held-out set")


def _twelfth(job: dict) -> bool:
    return job.get("note", "").startswith("twelfth held-out set")


def _thirteenth(job: dict) -> bool:
    return job.get("note", "").startswith("thirteenth held-out set")


def _fourteenth(job: dict) -> bool:
    return job.get("note", "").startswith("fourteenth held-out set")


def _fifteenth(job: dict) -> bool:
    return job.get("note", "").startswith("fifteenth held-out set")


def _sixteenth(job: dict) -> bool:
    return job.get("note", "").startswith("sixteenth held-out set")


def _seventeenth(job: dict) -> bool:
    return job.get("note", "").startswith("seventeenth held-out set")


def _eighteenth(job: dict) -> bool:
    return job.get("note", "").startswith("eighteenth held-out set")


def _nineteenth(job: dict) -> bool:
    return job.get("note", "").startswith("nineteenth held-out set")


def _twentieth(job: dict) -> bool:
    return job.get("note", "").startswith("twentieth held-out set")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=("dev", "held-out", "held-out-2", "held-out-3", "held-out-4", "held-out-5", "held-out-6",
                                        "held-out-7", "held-out-8", "held-out-9", "held-out-10", "held-out-11", "held-out-12", "held-out-13",
                                        "held-out-14", "held-out-15", "held-out-16", "held-out-17", "held-out-18",
                                        "held-out-19", "held-out-20", "all"),
                    default="dev",
                    help="held-out: the first held-out set; held-out-2: the second, labelled later; "
                         "held-out-3: the third (repositories new to the benchmark); held-out-4: the fourth (eight more new repositories); "
                         "held-out-5: the fifth (eight more); held-out-6: the sixth (eight more); held-out-7: the seventh (eight more); "
                         "held-out-8: the eighth (eight more); held-out-9: the ninth (eight more); "
                         "held-out-10: the tenth (eight more); held-out-11: the eleventh (eight more); "
                         "held-out-12: the twelfth (eight more); held-out-13: the thirteenth (eight more); "
                         "held-out-14: the fourteenth (eight more); held-out-15: the fifteenth (eight more); "
                         "held-out-16: the sixteenth (ten more); held-out-17: the seventeenth (eleven more); "
                         "held-out-18: the eighteenth (ten more); held-out-19: the nineteenth (eleven more); "
                         "held-out-20: the twentieth (ten more)")
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
    elif args.set == "dev":
        jobs = [j for j in jobs if not j["held_out"]]
    elif args.set == "held-out":
        jobs = [j for j in jobs if j["held_out"] and not _second(j) and not _third(j) and not _fourth(j)
                and not _fifth(j) and not _sixth(j) and not _seventh(j) and not _eighth(j) and not _ninth(j)
                and not _tenth(j) and not _eleventh(j) and not _twelfth(j) and not _thirteenth(j)
                and not _fourteenth(j) and not _fifteenth(j) and not _sixteenth(j) and not _seventeenth(j)
                and not _eighteenth(j) and not _nineteenth(j) and not _twentieth(j)]
    elif args.set == "held-out-2":
        jobs = [j for j in jobs if _second(j)]
    elif args.set == "held-out-3":
        jobs = [j for j in jobs if _third(j)]
    elif args.set == "held-out-4":
        jobs = [j for j in jobs if _fourth(j)]
    elif args.set == "held-out-5":
        jobs = [j for j in jobs if _fifth(j)]
    elif args.set == "held-out-6":
        jobs = [j for j in jobs if _sixth(j)]
    elif args.set == "held-out-7":
        jobs = [j for j in jobs if _seventh(j)]
    elif args.set == "held-out-8":
        jobs = [j for j in jobs if _eighth(j)]
    elif args.set == "held-out-9":
        jobs = [j for j in jobs if _ninth(j)]
    elif args.set == "held-out-10":
        jobs = [j for j in jobs if _tenth(j)]
    elif args.set == "held-out-11":
        jobs = [j for j in jobs if _eleventh(j)]
    elif args.set == "held-out-12":
        jobs = [j for j in jobs if _twelfth(j)]
    elif args.set == "held-out-13":
        jobs = [j for j in jobs if _thirteenth(j)]
    elif args.set == "held-out-14":
        jobs = [j for j in jobs if _fourteenth(j)]
    elif args.set == "held-out-15":
        jobs = [j for j in jobs if _fifteenth(j)]
    elif args.set == "held-out-16":
        jobs = [j for j in jobs if _sixteenth(j)]
    elif args.set == "held-out-17":
        jobs = [j for j in jobs if _seventeenth(j)]
    elif args.set == "held-out-18":
        jobs = [j for j in jobs if _eighteenth(j)]
    elif args.set == "held-out-19":
        jobs = [j for j in jobs if _nineteenth(j)]
    elif args.set == "held-out-20":
        jobs = [j for j in jobs if _twentieth(j)]
    if not args.no_fetch:
        fetch.fetch_all(jobs)
    preflight = args.preflight.split() if args.preflight else [sys.executable, "-m", "preflight"]
    results = [run_job(j, preflight, args.gpu or manifest.get("gpu", "a100-80gb"), args.timeout) for j in jobs]
    text = render(results, args.verbose)
    sys.stdout.write(text.splitlines()[-2] + "\n" if args.summary_only else text)
    if args.json:
        args.json.write_text(json.dumps({"summary": summarise(results), "jobs": results}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
