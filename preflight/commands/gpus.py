"""``preflight gpus``: list the GPU catalog, or with ``--instances`` the cloud instances."""

from __future__ import annotations

import argparse

HELP = "list the GPU catalog (or cloud instances) the fit verdicts use"
DESCRIPTION = (
    "List the GPUs preflight knows: the memory the driver reports (what a training job can "
    "use at most; less than the advertised size), the advertised size, bf16 and fp8 support. "
    "With --instances, list cloud instance types: provider, GPUs x count, total GPU memory "
    "and the approximate on-demand price."
)

_GIB = 1 << 30


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--instances", action="store_true", help="list cloud instances instead of GPUs")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def _gib(n: int) -> str:
    return f"{n / _GIB:.1f}"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _table(header: list, rows: list, right: set) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [str(c).rjust(w) if i in right else str(c).ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def _gpu_json(g) -> dict:
    return {"name": g.name, "aliases": list(g.aliases), "vendor": g.vendor,
            "memory_bytes": g.memory_bytes, "advertised_gib": g.advertised_gib,
            "bf16": g.bf16, "fp8": g.fp8, "memory_source": g.memory_source,
            "memory_evidence": g.memory_evidence, "source": g.source}


def _instance_json(i) -> dict:
    return {"name": i.name, "aliases": list(i.aliases), "provider": i.provider, "gpu": i.gpu.name,
            "count": i.count, "memory_bytes": i.memory_bytes, "hourly_usd": i.hourly_usd,
            "price_source": i.source}


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from preflight import hardware

    if args.instances:
        items = hardware.instances()
        if args.format == "json":
            doc = {"version": 1, "instances": [_instance_json(i) for i in items]}
            sys.stdout.write(json.dumps(doc, indent=2) + "\n")
            return 0
        rows = [[i.provider, i.name, f"{i.gpu.name} x{i.count}", _gib(i.memory_bytes),
                 "-" if i.hourly_usd is None else f"{i.hourly_usd:.2f}"] for i in items]
        sys.stdout.write(_table(["PROVIDER", "INSTANCE", "GPUS", "TOTAL GIB", "USD/H"], rows, {3, 4}))
        sys.stdout.write(f"{len(items)} instances; prices are approximate on-demand list prices "
                         "(see each entry's price_source in --format json)\n")
        return 0
    gpus = hardware.gpus()
    if args.format == "json":
        doc = {"version": 1, "gpus": [_gpu_json(g) for g in gpus]}
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return 0
    rows = [[g.name, g.vendor, _gib(g.memory_bytes) + ("" if g.measured else "*"),
             f"{g.advertised_gib:g}", _yes(g.bf16), _yes(g.fp8)] for g in gpus]
    sys.stdout.write(_table(["GPU", "VENDOR", "USABLE GIB", "ADVERTISED GIB", "BF16", "FP8"],
                            rows, {2, 3}))
    sys.stdout.write(f"{len(gpus)} GPUs; usable = total the driver reports; "
                     "* = derived from the advertised size, not measured\n")
    return 0
