"""est67: the cache of other batch lengths as a function of the data's mean length, cut or dropped (issue 17).

est23's grid (``calibration/length_spread.py``) has four length means (0.1, 0.3, 1 and 3 x the cap), and the cut runs
jump from 0.12 to 2.78 between the first two: too coarse to say what a job whose data's mean is known holds. This
replays the same recorded step (Qwen-7B LoRA with checkpointing, ``alloc_trace.shape_trace``) through the same
allocator simulator over a finer list of means, shuffled batches on the native allocator only (the setting whose
cache the estimate charges), both truncations, with est23's length generator, seed, step count and capacity. The
est23 means are in the list, so the run checks itself against ``calibration/data/length_spread.json``.

Usage::

    python -m calibration.est67_length_grid --trace /tmp/est67/trace-qwen-7b.json --cap 2048 \\
        --out calibration/data/est67_length_grid.json

(the trace is recorded when the file is missing: torch and transformers, about 3 minutes on CPU). Measured, not
fitted: the estimator reads nothing from it (docs/calibration.md, "est67").
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from pathlib import Path
from typing import Any, Dict, List

from calibration.caching_allocator import CachingAllocator

GIB = 1 << 30
MEANS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0)


def experiment(trace: Dict[str, Any], cap: int, steps: int, capacity: int,
               means: tuple = MEANS) -> List[Dict[str, Any]]:
    from calibration.length_spread import lengths, run, transient_at

    transient = transient_at(cap)
    fixed = run(trace, [cap] * 3, CachingAllocator, capacity)
    rows = []
    for mean in means:
        for trunc in ("truncate", "delete"):
            lens = lengths(steps, cap, mean * cap, trunc)
            t = time.time()
            r = run(trace, lens, CachingAllocator, capacity)
            excess = r["peak_reserved_gib"] - fixed["peak_reserved_gib"]
            row = {"cap": cap, "mean_to_cap": mean, "truncation": trunc, "order": "shuffled",
                   "allocator": "native", **r, "median_len": sorted(lens)[len(lens) // 2],
                   "fixed_reserved_gib": fixed["peak_reserved_gib"], "transient_at_cap_gib": round(transient, 3),
                   "ratio": round(excess / transient, 3), "seconds": round(time.time() - t, 1)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trace", type=Path, required=True, help="recorded here when missing")
    ap.add_argument("--cap", type=int, default=2048)
    ap.add_argument("--steps", type=int, default=120)
    ap.add_argument("--capacity-gib", type=float, default=78.65)
    ap.add_argument("--means", type=float, nargs="+", default=list(MEANS))
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if not args.trace.exists():
        from calibration.alloc_trace import lora_case, shape_trace

        case_at = functools.partial(lora_case, "qwen-7b", grad_ckpt=True)
        args.trace.write_text(json.dumps(shape_trace(case_at, [512, 1024, 2048], 1536)), encoding="utf-8")
    trace = json.loads(args.trace.read_text(encoding="utf-8"))
    rows = experiment(trace, args.cap, args.steps, int(args.capacity_gib * GIB), tuple(args.means))
    if args.out:
        doc = {"about": __doc__.split("\n\n")[0], "steps": args.steps, "capacity_gib": args.capacity_gib,
               "rows": rows}
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
