"""Does the cache of other batch lengths that the allocator cannot give back grow with the run's length? (est62)

Two of the public false fits (held-out-16, stanford_alpaca #308: out of memory at step 8,402 of 39,003; held-out-18,
OpenRLHF #384: "after some dozens of steps") are long runs with dynamic padding whose steady step fits. The estimator
charges the cache of other lengths (``length_cache``) and lets the verdict count only the part the allocator cannot
release before an out-of-memory error (est39, ``constants.LENGTH_CACHE_KEPT``), measured over 120 steps
(``calibration/length_cache_kept.py``). If that part grew with the number of steps, a run of thousands of steps would
keep more than the verdict counts.

This script replays est39's recorded Qwen-7B LoRA step (checkpointing; ``alloc_trace.shape_trace`` at 512/1,024/2,048
tokens, as ``variable_length.py --record qwen-7b`` writes it) through the allocator simulator with a capacity, for one
point of est39's grid (cap 2,048, log-normal lengths of mean 0.3 x the cap, cut at the cap, shuffled, torch's native
allocator) and runs of 120, 480 and 1,920 steps, and searches (to 64 MiB) the smallest capacity at which each run
completes (``length_cache_kept.smallest_capacity``). ``kept`` is est39's unit: that capacity less the one the run padded
to the cap needs, per byte of the step's transient length-dependent tensors at the cap.

Usage (imports torch and transformers for the recording only)::

    python -m calibration.est62_kept_steps --trace /tmp/trace-qwen-7b.json --steps 120 480 1920 \\
        --out calibration/data/est62_kept_steps.json
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

GIB = 1 << 30


def main(argv: Optional[List[str]] = None) -> int:
    from calibration.alloc_trace import lora_case, shape_trace
    from calibration.length_cache_kept import smallest_capacity
    from calibration.length_spread import lengths, transient_at

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trace", type=Path, required=True, help="recorded here when missing")
    ap.add_argument("--cap", type=int, default=2048)
    ap.add_argument("--mean-to-cap", type=float, default=0.3)
    ap.add_argument("--steps", type=int, nargs="+", default=[120, 480, 1920])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if not args.trace.exists():
        case_at = functools.partial(lora_case, "qwen-7b", grad_ckpt=True)
        args.trace.write_text(json.dumps(shape_trace(case_at, [512, 1024, 2048], 1536)), encoding="utf-8")
    trace = json.loads(args.trace.read_text(encoding="utf-8"))
    transient = transient_at(args.cap)
    fixed_cap, _ = smallest_capacity(trace, [args.cap] * 3)
    rows: List[Dict[str, Any]] = []
    for steps in args.steps:
        t = time.time()
        lens = lengths(steps, args.cap, args.mean_to_cap * args.cap, "truncate")
        need, free = smallest_capacity(trace, lens)
        rows.append({"cap": args.cap, "mean_to_cap": args.mean_to_cap, "steps": steps, "longest": max(lens),
                     "peak_allocated_gib": free["peak_allocated_gib"], "peak_reserved_gib": free["peak_reserved_gib"],
                     "min_capacity_gib": round(need / GIB, 3), "fixed_min_capacity_gib": round(fixed_cap / GIB, 3),
                     "transient_at_cap_gib": round(transient, 3),
                     "kept": round((need - fixed_cap) / GIB / transient, 3), "seconds": round(time.time() - t)})
        print(json.dumps(rows[-1]), flush=True)
    if args.out:
        doc = {"about": __doc__.split("\n\n")[0], "resolution_mib": 64, "rows": rows}
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
