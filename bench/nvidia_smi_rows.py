"""Public rows read from nvidia-smi, filtered by stack and length, with the estimate's miss in GiB (est44).

Issue 17 asks, before the CUDA-context term is touched for held-out-21's 1.2-1.7 GiB shortfall at
256 tokens (one GPU, torch 2.0.1 / CUDA 11.8), whether other splits' short-sequence rows on old
stacks fall short by the same amount. This lists every measured nvidia-smi row of every split (the
devset's fit and held-out halves and held-out-2 .. held-out-21) that matches the filters, with the
measured and estimated GiB and their difference, and the mean and median difference per split and
over the rows outside ``--exclude``.

Usage::

    python bench/nvidia_smi_rows.py [--torch-from 1.13] [--torch-below 2.1] [--max-seq 513] \\
        [--world-size 1] [--exclude held-out-21]

Rows read: every row this prints is seen (in-sample for whatever it is used for).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import public_accuracy as pa

GIB = 2 ** 30


def _version(text: Any) -> Optional[Tuple[int, ...]]:
    parts = []
    for piece in str(text or "").split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts) if len(parts) == 2 else None


def _parse(text: str) -> Tuple[int, ...]:
    out = _version(text)
    if out is None:
        raise argparse.ArgumentTypeError(f"not a version: {text}")
    return out


def rows(args: argparse.Namespace) -> List[Dict[str, Any]]:
    files = {"devset": pa.DEVSET, **pa.SPLIT_FILES}
    out = []
    for split, path in files.items():
        for row in pa.load(path)["rows"]:
            setup = row["setup"]
            version = _version(setup.get("torch_version"))
            if row.get("measured") != "nvidia-smi" or not row.get("peak_bytes") or version is None:
                continue
            if not (args.torch_from <= version < args.torch_below):
                continue
            if int(setup.get("world_size", 1)) != args.world_size:
                continue
            if args.max_seq and int(setup.get("seq_len") or 0) > args.max_seq:
                continue
            res = pa.evaluate(row)
            if res.error is None or res.estimate is None:
                continue
            out.append({"split": split if split != "devset" else row.get("split", "devset"),
                        "id": row["id"], "torch": setup.get("torch_version"),
                        "seq": setup.get("seq_len"), "measured": row["peak_bytes"] / GIB,
                        "estimate": res.estimate / GIB})
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--torch-from", type=_parse, default=(1, 13))
    ap.add_argument("--torch-below", type=_parse, default=(2, 1))
    ap.add_argument("--max-seq", type=int, default=513)
    ap.add_argument("--world-size", type=int, default=1)
    ap.add_argument("--exclude", action="append", default=[])
    args = ap.parse_args(argv)
    found = rows(args)
    for r in found:
        print(f"{r['split']:12s} {r['id'][:72]:72s} torch {r['torch']!s:7s} seq {r['seq']!s:5s} "
              f"measured {r['measured']:6.2f} estimate {r['estimate']:6.2f} "
              f"diff {r['estimate'] - r['measured']:+6.2f} GiB")
    groups: Dict[str, List[float]] = {}
    for r in found:
        groups.setdefault(r["split"], []).append(r["estimate"] - r["measured"])
    print()
    for split, diffs in groups.items():
        print(f"{split:12s} {len(diffs):3d} rows  mean {statistics.mean(diffs):+6.2f}  "
              f"median {statistics.median(diffs):+6.2f} GiB")
    rest = [r["estimate"] - r["measured"] for r in found if r["split"] not in args.exclude]
    if rest:
        print(f"{'outside ' + ','.join(args.exclude or ['-']):24s} {len(rest):3d} rows  mean "
              f"{statistics.mean(rest):+6.2f}  median {statistics.median(rest):+6.2f} GiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
