"""The gate's cost per submission.

1. `gate()` in-process and `python -m preflight gate` as a process, on the test jobs
   (tests/fixtures/gate/slurm: a Llama-2-7B job that is rejected, a GPT-2 job admitted).
2. With root and the Slurm packages (`.ci/slurm-setup.sh install`): a real single-node
   Slurm on loopback; `sbatch --hold` of the same script N times through a pass-through
   job_submit.lua and N times through the preflight job_submit.lua. The added latency per
   submission is the difference of the medians.

    python bench/bench_gate.py [--runs N] [--no-slurm]

Prints medians (and min/max) in milliseconds. The figures depend on the machine's load.
Processes run with their bytecode cached (in a temporary PYTHONPYCACHEPREFIX), as an
installed preflight does.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIX = REPO / "tests" / "fixtures" / "gate" / "slurm"
SETUP = REPO / ".ci" / "slurm-setup.sh"
PASS = """\
function slurm_job_submit(job_desc, part_list, submit_uid) return slurm.SUCCESS end
function slurm_job_modify(job_desc, job_rec, part_list, modify_uid) return slurm.SUCCESS end
"""
PASS_CLI = """\
function slurm_cli_setup_defaults(options, early_pass) return slurm.SUCCESS end
function slurm_cli_pre_submit(options, pack_offset) return slurm.SUCCESS end
function slurm_cli_post_submit(offset, job_id, step_id) return slurm.SUCCESS end
"""


def _ms(samples: list[float]) -> str:
    return (f"median {statistics.median(samples) * 1000:7.0f} ms  (min {min(samples) * 1000:.0f}, "
            f"max {max(samples) * 1000:.0f}, n={len(samples)})")


def _time(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def _process_env() -> dict[str, str]:
    """Bytecode cached, as in an installed preflight (this tree may be run with
    PYTHONDONTWRITEBYTECODE=1, which recompiles every module on every start); the cache
    goes to a temporary folder, not into the tree."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="preflight-bench-pyc-")
    return env


PROCESS_ENV = _process_env()


def bench_gate(runs: int) -> None:
    sys.path.insert(0, str(REPO))
    from preflight.gate.cluster import load_cluster
    from preflight.gate.verdict import GateRequest, gate

    cluster = load_cluster(FIX / "cluster.yaml")
    for job in ("job_oom.sh", "job_good.sh"):
        def once(job: str = job) -> None:
            gate(GateRequest(job_path=FIX / job, display=job, root=FIX, cluster=cluster))

        once()  # warm: imports, catalogs
        print(f"gate() in-process, {job:12s} {_ms(_time(once, runs))}")
    for job in ("job_oom.sh", "job_good.sh"):
        cmd = [sys.executable, "-m", "preflight", "gate", job, "--cluster", "cluster.yaml"]
        subprocess.run(cmd, cwd=FIX, capture_output=True, check=False, env=PROCESS_ENV)  # warm the bytecode
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        samples = _time(lambda cmd=cmd: subprocess.run(cmd, cwd=FIX, capture_output=True, check=False,
                                                       env=PROCESS_ENV), runs)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / runs
        print(f"preflight gate process, {job:12s} {_ms(samples)}; CPU time {cpu * 1000:.0f} ms per run")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _expect(mode: str, work: Path, client: dict) -> None:
    """Wait until slurmctld runs the job_submit.lua of ``mode``: the OOM job is rejected by
    the gate and accepted by the pass-through."""
    want_rejected = mode == "preflight"
    for _ in range(20):
        proc = subprocess.run(["sbatch", "--hold", "job_oom.sh"], cwd=work, env=client, capture_output=True)
        if (proc.returncode != 0) == want_rejected:
            return
        time.sleep(0.5)
    raise SystemExit(f"slurmctld did not switch to the {mode} job_submit.lua")


def bench_slurm(runs: int) -> None:
    if os.geteuid() != 0 or not os.path.exists("/usr/sbin/slurmctld") or shutil.which("sbatch") is None:
        print("real Slurm: skipped (needs root and `.ci/slurm-setup.sh install`)")
        return
    base = Path(tempfile.mkdtemp(prefix="preflight-bench-slurm-"))
    state, lua, work = base / "state", base / "lua", base / "work"
    shutil.copytree(FIX, work)
    subprocess.run([sys.executable, "-m", "preflight", "gate", "--write-lua", str(lua), "--cluster",
                    str(work / "cluster.yaml")], check=True, capture_output=True)
    # slurmctld (and the gate it starts) inherits this environment
    env = {**PROCESS_ENV, "PREFLIGHT_SLURMCTLD_PORT": str(_port()), "PREFLIGHT_SLURMD_PORT": str(_port())}
    subprocess.run(["bash", str(SETUP), "start", str(state), str(lua)], check=True, capture_output=True, env=env)
    client = {**os.environ, "SLURM_CONF": str(state / "slurm.conf")}
    (state / "cli_filter.lua").write_text(PASS_CLI)  # only the server-side gate is measured
    try:
        results = {}
        for mode in ("pass-through", "preflight"):
            time.sleep(1.1)  # job_submit/lua reloads a script whose mtime is newer than its last load (1 s)
            (state / "job_submit.lua").write_text(PASS if mode == "pass-through" else
                                                  (lua / "job_submit.lua").read_text())
            subprocess.run(["scontrol", "reconfigure"], env=client, check=True, capture_output=True)
            _expect(mode, work, client)

            def submit() -> None:
                proc = subprocess.run(["sbatch", "--hold", "job_good.sh"], cwd=work, env=client,
                                      capture_output=True, text=True)
                if proc.returncode != 0:
                    raise SystemExit(f"sbatch failed: {proc.stderr}")

            submit()  # warm
            results[mode] = _time(submit, runs)
            subprocess.run(["scancel", "--user", "root"], env=client, capture_output=True)
            print(f"sbatch --hold, job_submit.lua {mode:12s} {_ms(results[mode])}")
        added = statistics.median(results["preflight"]) - statistics.median(results["pass-through"])
        print(f"added latency per submission (job_submit.lua gate): {added * 1000:.0f} ms (difference of medians)")
    finally:
        subprocess.run(["bash", str(SETUP), "stop", str(state)], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--no-slurm", action="store_true")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    bench_gate(args.runs)
    if not args.no_slurm:
        bench_slurm(args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
