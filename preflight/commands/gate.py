"""``preflight gate JOB``: admit or reject a SLURM batch script or a Kubernetes manifest."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "admit or reject a SLURM batch script or Kubernetes job before it is submitted"
DESCRIPTION = (
    "Gate a job before it holds GPUs: a SLURM batch script (its #SBATCH directives, the sbatch "
    "options given after --, SBATCH_* variables) or a Kubernetes Pod/Job/PyTorchJob manifest. "
    "Runs the full audit of the script the job launches (code rules, plan, memory estimate "
    "against the GPU the cluster file maps the job to) and the job rules PF70x. "
    "Exit status: 0 admit, 1 reject (reasons on stdout), 2 error (bad job or cluster file)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("job", nargs="?", type=Path, metavar="JOB",
                   help="a batch script or a manifest (.yaml/.json); '-' reads standard input")
    p.add_argument("--cluster", type=Path, metavar="FILE",
                   help="cluster description file (GPU model per partition / node label, policy); "
                        "env PREFLIGHT_CLUSTER")
    p.add_argument("--config", action="append", type=Path, default=[], metavar="FILE",
                   help="a config the job reads (DeepSpeed JSON, a mounted ConfigMap, ...); repeatable")
    p.add_argument("--script", action="append", type=Path, default=[], metavar="FILE",
                   help="the training script the job runs, when it is not at the path the job names "
                        "(e.g. inside a container image); repeatable")
    p.add_argument("--root", type=Path, metavar="DIR",
                   help="the directory the job is submitted from (default: the current directory)")
    p.add_argument("--kind", choices=("auto", "slurm", "k8s"), default="auto", help="job file kind")
    p.add_argument("--gpu", metavar="NAME", help="the GPU model the job lands on (overrides the cluster file)")
    p.add_argument("--allow-unknown", action="store_true",
                   help="admit a job whose fit cannot be estimated (overrides policy.allow_unknown)")
    p.add_argument("--usable-memory", type=float, metavar="FRACTION",
                   help="fraction of GPU memory a job may plan to use (overrides policy.usable_memory)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.add_argument("--explain", metavar="CODE", help="print the documentation of a job rule (PF70x) and exit")
    p.add_argument("--write-lua", metavar="DIR", type=Path,
                   help="write cli_filter.lua and job_submit.lua for this installation into DIR and exit")


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from preflight.cli import EXIT_USAGE, UsageError

    if args.explain:
        return _explain(args.explain)
    if args.write_lua is not None:
        from preflight.gate.lua_install import write_lua

        cluster = args.cluster or (Path(os.environ["PREFLIGHT_CLUSTER"]) if os.environ.get("PREFLIGHT_CLUSTER")
                                   else None)
        from preflight.gate.cluster import ClusterError

        try:
            written = write_lua(args.write_lua, cluster=cluster)
        except ClusterError as exc:
            sys.stderr.write(f"preflight: error: {exc.error.render()}\n")
            return EXIT_USAGE
        for path in written:
            sys.stdout.write(f"wrote {path}\n")
        return 0
    if args.job is None:
        raise UsageError("gate needs a job file (a batch script or a manifest), or --explain / --write-lua")
    from preflight.gate.cluster import ClusterError, check_gpu_flag, load_cluster
    from preflight.gate.verdict import GateRequest, gate, request_from_env

    check_gpu_flag(args.gpu)
    cluster_path = args.cluster or (Path(os.environ["PREFLIGHT_CLUSTER"]) if os.environ.get("PREFLIGHT_CLUSTER")
                                    else None)
    cluster = None
    if cluster_path is not None:
        try:
            cluster = load_cluster(cluster_path)
        except ClusterError as exc:
            sys.stderr.write(f"preflight: error: {exc.error.render()}\n")
            return EXIT_USAGE
    text = None
    job_path = args.job
    display = str(args.job)
    if str(args.job) == "-":
        from preflight.sources import read_stream_limited

        try:
            raw = read_stream_limited(getattr(sys.stdin, "buffer", None) or sys.stdin)
        except OSError as exc:
            sys.stderr.write(f"preflight: error: <stdin>: {exc}\n")
            return EXIT_USAGE
        text = raw if isinstance(raw, str) else raw.decode("utf-8", errors="replace")
        job_path, display = None, "<stdin>"
    req = GateRequest(job_path=job_path, job_text=text, display=display, kind=args.kind,
                      sbatch_args=list(args.launch), env=request_from_env(), configs=list(args.config),
                      scripts=list(args.script), root=args.root, cluster=cluster, gpu=args.gpu,
                      allow_unknown=True if args.allow_unknown else None, usable_memory=args.usable_memory)
    result = gate(req)
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(result.to_dict(), indent=2) + "\n")
    else:
        sys.stdout.write(result.text())
    return result.exit_code


def _explain(code: str) -> int:
    import sys

    from preflight.docs import rule_markdown
    from preflight.gate.rules import job_rules

    rules = job_rules()
    cls = rules.get(code.strip().upper()) or next((c for c in rules.values() if c.name == code.strip()), None)
    if cls is None:
        sys.stderr.write(f"preflight: error: unknown job rule {code!r} (job rules: {', '.join(rules)})\n")
        return 2
    sys.stdout.write(rule_markdown(cls))
    return 0
