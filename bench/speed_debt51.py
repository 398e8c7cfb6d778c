"""CPU and wall time of ``preflight audit`` on real jobs, two preflight commands side by side in one run
(debt51: the star-import memo of adapters/star_imports.py).

Each job of bench/realworld/jobs/manifest.json is audited as run.py audits it (its invocation, ``--emit-plan
json``, the manifest's GPU), by BASE then NEW, alternating, ``--rounds`` times; the child's user+sys CPU
seconds (``resource.getrusage(RUSAGE_CHILDREN)``) and wall seconds are printed per run, and whether the two
commands' stdout (the plan JSON) and exit codes are byte-identical.

    PREFLIGHT_REALJOBS_WORK=/work/wt/jobswork/all python bench/speed_debt51.py \\
        --base "/tmp/debt51/base/.venv/bin/python -m preflight" --new ".venv/bin/python -m preflight" JOB...
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "realworld" / "jobs"))

import fetch
from run import audit_call


def run(cmd: list[str], job: dict, gpu: str) -> tuple[float, float, int, str]:
    cwd, full, env = audit_call(job, cmd, gpu)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(full, cwd=cwd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.returncode, proc.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("jobs", nargs="+")
    args = ap.parse_args(argv)
    manifest = json.loads(fetch.MANIFEST.read_text())
    by_id = {j["id"]: j for j in manifest["jobs"]}
    gpu = manifest.get("gpu", "a100-80gb")
    print(f"{'job':<62} {'round':>5} {'base cpu':>9} {'new cpu':>8} {'base wall':>10} {'new wall':>9}  same output")
    for job_id in args.jobs:
        job = by_id[job_id]
        for r in range(1, args.rounds + 1):
            b_cpu, b_wall, b_rc, b_out = run(shlex.split(args.base), job, gpu)
            n_cpu, n_wall, n_rc, n_out = run(shlex.split(args.new), job, gpu)
            same = "yes" if (b_rc, b_out) == (n_rc, n_out) else f"NO (exit {b_rc} / {n_rc})"
            print(f"{job_id:<62} {r:>5} {b_cpu:>8.1f}s {n_cpu:>7.1f}s {b_wall:>9.1f}s {n_wall:>8.1f}s  {same}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
