"""How much of the cache of other batch lengths the allocator can NOT give back before an OOM (est39).

est23's ``length_spread.py`` measures how far reserved memory rises above a run padded to the cap
when batch lengths vary; the estimator charges that as ``length_cache`` and, until est39, the verdict
left all of it out: "the allocator releases cached segments and retries before an out-of-memory
error, so the cache never makes a job fail". PyTorch's ``release_cached_blocks`` frees only
segments that are WHOLLY free (``release_blocks``: ``if (!block->prev && !block->next)``); a segment
that a shorter step split and still partly uses cannot be returned, so some of the cache stays and a
job whose allocated peak fits can still run out after some steps ("memory kept rising until OOM").

This script replays the same recorded step and the same grid as ``length_spread.py`` (Qwen-7B LoRA
with checkpointing; caps 2,048 and 8,192; lengths log-normal with a mean of 0.1, 0.3, 1 and 3 times
the cap, dropped or cut at the cap; shuffled or grouped by length; torch's native allocator) through
the allocator simulator with a capacity, and searches (to 64 MiB) the smallest capacity at which the
whole run completes. The same search on the run padded to the cap gives what the estimate at the cap
(its fragmentation included, est22's ``STEP_CACHE_RATIO``) already needs. Their difference, per byte
of the estimator's transient length-dependent terms at the cap (the unit ``length_cache`` charges
in), is the part of the cache a verdict must count: ``kept`` in ``calibration/data/length_cache_kept.json``.

Usage::

    python -m calibration.length_cache_kept --trace /tmp/est39/trace-qwen-7b.json --cap 2048 \\
        --order shuffled --out /tmp/est39/kept-2048.json     (and --cap 8192: /tmp/est39/kept-8192.json)
    python -m calibration.length_cache_kept --merge /tmp/est39/kept-2048.json /tmp/est39/kept-8192.json \\
        --out calibration/data/length_cache_kept.json

(the trace: ``alloc_trace.shape_trace(functools.partial(alloc_trace.lora_case, "qwen-7b",
grad_ckpt=True), [512, 1024, 2048], 1536)``, as ``variable_length.py --record qwen-7b`` writes it).
Imports torch only through the recorder; the replay is pure Python.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from calibration.caching_allocator import CachingAllocator, OutOfMemory
from calibration.length_spread import (
    CAPS,
    MEAN_TO_CAP,
    ORDERS,
    TRUNCATION,
    group_by_length,
    lengths,
    run,
    transient_at,
)

GIB = 1 << 30
STEP = 64 << 20


def smallest_capacity(trace: Dict[str, Any], lens: List[int]) -> Tuple[int, Dict[str, Any]]:
    """(bytes, the unconstrained run) : the smallest capacity (to 64 MiB) at which the run of
    ``lens`` completes on the native allocator."""
    free = run(trace, lens, CachingAllocator, None)
    lo = int(free["peak_allocated_gib"] * GIB) - STEP
    hi = int(free["peak_reserved_gib"] * GIB) + STEP
    while hi - lo > STEP:
        mid = (lo + hi) // 2
        try:
            run(trace, lens, CachingAllocator, mid)
            hi = mid
        except OutOfMemory:
            lo = mid
    return hi, free


def experiment(trace: Dict[str, Any], steps: int, caps: Tuple[int, ...] = CAPS,
               orders: Tuple[str, ...] = ORDERS) -> List[Dict[str, Any]]:
    rows = []
    for cap in caps:
        transient = transient_at(cap)
        fixed_cap, fixed = smallest_capacity(trace, [cap] * 3)
        for mean in MEAN_TO_CAP:
            for trunc in TRUNCATION:
                lens = lengths(steps, cap, mean * cap, trunc)
                for order in orders:
                    seq = lens if order == "shuffled" else group_by_length(lens)
                    need, free = smallest_capacity(trace, seq)
                    row = {"cap": cap, "mean_to_cap": mean, "truncation": trunc, "order": order,
                           "allocator": "native", "longest": max(seq),
                           "peak_allocated_gib": free["peak_allocated_gib"],
                           "peak_reserved_gib": free["peak_reserved_gib"],
                           "min_capacity_gib": round(need / GIB, 3),
                           "fixed_reserved_gib": fixed["peak_reserved_gib"],
                           "fixed_min_capacity_gib": round(fixed_cap / GIB, 3),
                           "transient_at_cap_gib": round(transient, 3),
                           "cached_ratio": round((free["peak_reserved_gib"] - fixed["peak_reserved_gib"])
                                                 / transient, 3),
                           "kept": round((need - fixed_cap) / GIB / transient, 3)}
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    return rows


def summary(rows: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Per batch order: median, low and high of ``kept`` (the verdict's share, in the unit of
    ``length_cache``) beside the same runs' ``cached_ratio`` (what length_spread measures)."""
    out: Dict[str, Any] = {}
    for order in ORDERS:
        rs = [r for r in rows if r["order"] == order]
        if not rs:
            continue
        kept = sorted(r["kept"] for r in rs)
        cached = sorted(r["cached_ratio"] for r in rs)
        out[f"{order}/native"] = {"runs": len(rs), "kept_median": statistics.median(kept),
                                  "kept_low": kept[0], "kept_high": kept[-1],
                                  "cached_median": statistics.median(cached)}
    return out


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace", help="JSON from alloc_trace.shape_trace (qwen-7b)")
    ap.add_argument("--steps", type=int, default=120)
    ap.add_argument("--cap", type=int, action="append", help="only these caps (repeatable)")
    ap.add_argument("--order", action="append", choices=ORDERS, help="only these batch orders")
    ap.add_argument("--merge", type=Path, nargs="*", help="outputs of partial runs to join into --out")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if args.merge:
        parts = [json.loads(p.read_text(encoding="utf-8")) for p in args.merge]
        rows = [r for part in parts for r in part["rows"]]
        doc = dict(parts[0], rows=rows, summary=summary(rows))
        print(json.dumps(doc["summary"], indent=1))
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        return
    trace = json.loads(Path(args.trace).read_text(encoding="utf-8"))
    rows = experiment(trace, args.steps, tuple(args.cap or CAPS), tuple(args.order or ORDERS))
    doc = {"about": __doc__.split("\n\n")[0], "steps": args.steps, "resolution_mib": STEP >> 20,
           "rows": rows, "summary": summary(rows)}
    print(json.dumps(doc["summary"], indent=1))
    if args.out:
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
