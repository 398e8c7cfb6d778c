"""``preflight sbatch [GATE OPTIONS] -- SBATCH ARGS...``: gate a batch job, then submit it."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "gate a SLURM batch job, then submit it with sbatch"
DESCRIPTION = (
    "Run `preflight gate` on the batch script with the sbatch options given after -- "
    "(they win over the script's #SBATCH directives, as in sbatch), then submit with sbatch "
    "when the gate admits. Rejected: the reasons on stderr, exit 1, nothing submitted. "
    "Gate error: exit 2, nothing submitted. Admitted: sbatch's own output and exit status."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cluster", type=Path, metavar="FILE", help="cluster description file; env PREFLIGHT_CLUSTER")
    p.add_argument("--config", action="append", type=Path, default=[], metavar="FILE",
                   help="a config the job reads that its launch line does not name; repeatable")
    p.add_argument("--allow-unknown", action="store_true", help="submit a job whose fit cannot be estimated")
    p.add_argument("--gpu", metavar="NAME", help="the GPU model the job lands on (overrides the cluster file)")
    p.add_argument("--sbatch", default="sbatch", metavar="PATH", help="the sbatch to run (default: sbatch)")
    p.add_argument("sbatch_args", nargs=argparse.REMAINDER, metavar="ARGS",
                   help="sbatch's arguments: options, the script, its arguments (put options after --)")


def run(args: argparse.Namespace) -> int:
    import os
    import subprocess
    import sys

    from preflight.cli import EXIT_USAGE, UsageError
    from preflight.gate.cluster import ClusterError, load_cluster
    from preflight.gate.slurm import parse_options
    from preflight.gate.verdict import ADMIT, ERROR, GateRequest, gate, request_from_env

    argv = list(args.sbatch_args) + list(args.launch)
    options, rest = parse_options(argv, "cli")
    if not rest:
        raise UsageError("preflight sbatch needs a batch script (sbatch --wrap and standard input are not gated)")
    script = Path(rest[0])
    cut = len(argv) - len(rest)
    from preflight.gate.cluster import check_gpu_flag

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
    del options
    result = gate(GateRequest(job_path=script, display=str(script), kind="slurm", sbatch_args=argv[:cut],
                              env=request_from_env(), configs=list(args.config), cluster=cluster, gpu=args.gpu,
                              allow_unknown=True if args.allow_unknown else None))
    if result.decision != ADMIT:
        sys.stderr.write(result.text())
        whom = cluster.whom() if cluster is not None else "the cluster's administrators"
        sys.stderr.write("preflight sbatch: not submitted\n" if result.decision != ERROR else
                         "preflight sbatch: the gate could not check the job; not submitted. "
                         f"If this persists, tell {whom}.\n")
        return result.exit_code
    for warning in result.warnings:
        sys.stderr.write(f"preflight gate: warning: {warning}\n")
    try:
        return subprocess.call([args.sbatch, *argv])
    except OSError as exc:
        sys.stderr.write(f"preflight sbatch: cannot run {args.sbatch}: {exc.strerror or exc}\n")
        return EXIT_USAGE
