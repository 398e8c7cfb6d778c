"""``preflight serve --admission``: the Kubernetes validating admission webhook."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

HELP = "serve the gate as a Kubernetes validating admission webhook (HTTPS)"
DESCRIPTION = (
    "Answer admission.k8s.io/v1 AdmissionReview requests for Pods, Jobs and PyTorchJobs with the "
    "gate's verdict: allowed, or denied with the reasons in status.message; warnings in "
    "warnings. HTTPS with the given certificate and key. Fail-closed: a gate error or timeout "
    "denies unless --fail-open."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--admission", action="store_true", required=True,
                   help="serve the validating admission webhook (the only mode)")
    p.add_argument("--cert", type=Path, required=True, metavar="FILE", help="TLS certificate (PEM, with chain)")
    p.add_argument("--key", type=Path, required=True, metavar="FILE", help="TLS private key (PEM)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    p.add_argument("--port", type=int, default=8443, help="port (default 8443; 0 picks a free one)")
    p.add_argument("--cluster", type=Path, metavar="FILE", help="cluster description file; env PREFLIGHT_CLUSTER")
    p.add_argument("--root", type=Path, metavar="DIR",
                   help="where the scripts and configs named by containers are looked up (the code the "
                        "images hold, e.g. a checkout); absolute container paths are re-rooted here")
    p.add_argument("--config", action="append", type=Path, default=[], metavar="FILE",
                   help="a config file jobs mount (matched by base name); repeatable")
    p.add_argument("--timeout", type=float, default=8.0, metavar="SECONDS",
                   help="answer within this time (default 8; keep it below the webhook's timeoutSeconds)")
    p.add_argument("--fail-open", action="store_true",
                   help="admit when the gate fails or times out (default: the cluster file's policy.on_failure, "
                        "else reject)")
    p.add_argument("--max-checks", type=int, default=4, metavar="N",
                   help="gate checks at once (default 4); a request that finds none free in time fails "
                        "per the failure policy")
    p.add_argument("--max-connections", type=int, default=64, metavar="N",
                   help="open connections (default 64); more are closed at once")
    p.add_argument("--allow-unknown", action="store_true", help="admit jobs whose fit cannot be estimated")


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from preflight.cli import EXIT_USAGE
    from preflight.gate.cluster import ClusterError, load_cluster
    from preflight.gate.webhook import WebhookConfig, make_server, serve_forever

    cluster_path = args.cluster or (Path(os.environ["PREFLIGHT_CLUSTER"]) if os.environ.get("PREFLIGHT_CLUSTER")
                                    else None)
    cluster = None
    if cluster_path is not None:
        try:
            cluster = load_cluster(cluster_path)
        except ClusterError as exc:
            sys.stderr.write(f"preflight: error: {exc.error.render()}\n")
            return EXIT_USAGE
    fail_open = args.fail_open or (cluster is not None and cluster.policy.on_failure == "admit")
    root = args.root
    if root is None:
        # no --root: the manifests' files are not on this machine, and the webhook's own file
        # system (its service account token, its configs) is no job's directory: read nothing
        import tempfile

        root = Path(tempfile.mkdtemp(prefix="preflight-webhook-empty-"))
    config = WebhookConfig(cluster=cluster, root=root, configs=list(args.config), timeout=args.timeout,
                           fail_open=fail_open, allow_unknown=True if args.allow_unknown else None,
                           max_checks=args.max_checks, max_connections=args.max_connections,
                           contact=cluster.contact if cluster is not None else "")
    try:
        server = make_server(args.host, args.port, args.cert, args.key, config)
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"preflight: error: cannot serve on {args.host}:{args.port}: {exc}\n")
        return EXIT_USAGE
    host, port = str(server.server_address[0]), int(server.server_address[1])
    sys.stdout.write(f"preflight serve: admission webhook on https://{host}:{port}/validate\n")
    sys.stdout.flush()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            serve_forever(server)
    finally:
        if args.root is None:
            with contextlib.suppress(OSError):
                root.rmdir()
    return 0
