"""det79: run ``preflight audit`` on real jobs of bench/realworld/jobs/manifest.json (the job as its
manifest launches it) with only the given rules selected, and print every finding for triage.

    PREFLIGHT_REALJOBS_WORK=/work/wt/jobswork/all python bench/bugs/det79_real_code.py --select PF386,PF387

Jobs: those whose repository (at the manifest's commit, already materialised) has a Python, shell, YAML or
JSON file that mentions ``--needle`` (``target_modules`` by default) (where a LoRA rule can fire); set 35 is never run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "realworld" / "jobs"))

import fetch  # noqa: E402
from run import set_of  # noqa: E402


def mentions(root: Path, needle: str) -> bool:
    for path in root.rglob("*"):
        if path.suffix not in (".py", ".sh", ".yaml", ".yml", ".json") or not path.is_file():
            continue
        try:
            if needle in path.read_text(encoding="utf-8", errors="replace"):
                return True
        except OSError:
            continue
    return False


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--select", required=True)
    ap.add_argument("--needle", default="target_modules")
    ap.add_argument("--timeout", type=float, default=240)
    args = ap.parse_args()
    manifest = json.loads((HERE.parent / "realworld" / "jobs" / "manifest.json").read_text())
    jobs = manifest["jobs"]
    ran = 0
    for job in jobs:
        if set_of(job) == "held-out-35":
            continue
        root = fetch.job_dir(job)
        if not root.is_dir() or not mentions(root, args.needle):
            continue
        cwd = root / job["cwd"]
        inv = list(job["invocation"])
        cut = inv.index("--") if "--" in inv else len(inv)
        cmd = [sys.executable, "-m", "preflight", "audit", *inv[:cut], "--select", args.select, "--format", "json",
               *inv[cut:]]
        env = dict(os.environ, NO_COLOR="1")
        try:
            proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=args.timeout, env=env)
        except subprocess.TimeoutExpired:
            print(f"{job['id']}: timed out")
            continue
        ran += 1
        try:
            data = json.loads(proc.stdout)
        except json.JSONDecodeError:
            print(f"{job['id']}: exit {proc.returncode}, no JSON: {proc.stderr.strip()[-200:]}")
            continue
        findings = data.get("findings", []) if isinstance(data, dict) else []
        print(f"{job['id']}: exit {proc.returncode}, {len(findings)} finding(s)")
        for f in findings:
            print(f"  {f.get('code')} {f.get('path')}:{(f.get('span') or {}).get('line', f.get('line'))} "
                  f"{f.get('message')}")
            for ev in f.get("evidence", []):
                print(f"      evidence {ev.get('path')}:{ev.get('line')} {ev.get('message')}")
        sys.stdout.flush()
    print(f"jobs run: {ran}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
