"""Reserved memory over a run of variable-length batches when the data's lengths are NOT known:
how much the caching allocator holds above a run padded to the cap, over a grid of length
distributions, batch orders and allocator settings (docs/calibration.md, "est23").

est10 (``calibration/variable_length.py``) measured the excess for one dataset whose lengths
are known (held-out-6's ms-swift benchmark data: mean 3,234 tokens, deviation 2,548). A plan
rarely knows its data's lengths; it knows the cap (``max_length``), whether batches are padded
per batch, the sampler's order (``group_by_length``) and the allocator's configuration
(``PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True``). This script replays the same recorded
training step (Qwen-7B LoRA with checkpointing, ``calibration/alloc_trace.py``) through the
allocator simulator (``calibration/caching_allocator.py``) over a grid fixed before any run:

- caps 2,048 and 8,192 tokens;
- log-normal lengths with the est10 dataset's spread (coefficient of variation 0.79) and a mean
  of 0.1, 0.3, 1 or 3 times the cap; samples over the cap either dropped (ms-swift's
  ``truncation_strategy='delete'``) or cut to the cap (a tokenizer's ``truncation=True``);
- batch order: shuffled (the default ``RandomSampler``), or ``group_by_length``
  (transformers' ``get_length_grouped_indices``: megabatches of 50 samples, each sorted longest
  first, and the megabatch holding the longest sample moved to the front);
- allocator: native (torch's default), or ``expandable_segments:True``.

Each run is ``--steps`` micro-steps. The excess is the run's reserved peak less the reserved
peak of the same job padded to the cap, per byte of the estimator's transient length-dependent
terms at the cap (``length_cache.LENGTH_TERMS``), the unit ``length_cache`` charges in. It is
negative when the data's longest batches stay well under the cap.

Usage::

    python -m calibration.length_spread --trace /tmp/est23/trace-qwen-7b.json \\
        --out calibration/data/length_spread.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Type

from calibration.alloc_trace import sizes_at
from calibration.caching_allocator import CachingAllocator, ExpandableAllocator

GIB = 1 << 30
CV = 2548.0 / 3234.0
MIN_LEN = 32
CAPS = (2048, 8192)
MEAN_TO_CAP = (0.1, 0.3, 1.0, 3.0)
TRUNCATION = ("delete", "truncate")
ORDERS = ("shuffled", "group_by_length")
ALLOCATORS: Dict[str, Type[CachingAllocator]] = {"native": CachingAllocator,
                                                 "expandable": ExpandableAllocator}
MEGABATCH = 50


def lengths(n: int, cap: int, mean: float, truncation: str, seed: int = 0) -> List[int]:
    """``n`` sample lengths, log-normal with mean ``mean`` and coefficient of variation CV."""
    sigma2 = math.log(1.0 + CV ** 2)
    mu = math.log(mean) - sigma2 / 2
    rng = random.Random(seed)
    out: List[int] = []
    while len(out) < n:
        x = max(MIN_LEN, round(rng.lognormvariate(mu, math.sqrt(sigma2))))
        if x > cap:
            if truncation == "delete":
                continue
            x = cap
        out.append(x)
    return out


def group_by_length(lens: List[int], seed: int = 0) -> List[int]:
    """transformers' ``get_length_grouped_indices`` at batch size 1: a random permutation cut
    into megabatches of 50, each sorted longest first, the longest sample moved to the front."""
    rng = random.Random(seed)
    order = list(range(len(lens)))
    rng.shuffle(order)
    megas = [sorted(order[i:i + MEGABATCH], key=lambda j: -lens[j])
             for i in range(0, len(order), MEGABATCH)]
    maxima = [lens[m[0]] for m in megas]
    k = maxima.index(max(maxima))
    megas[0][0], megas[k][0] = megas[k][0], megas[0][0]
    return [lens[j] for m in megas for j in m]


def run(trace: Dict[str, Any], lens: List[int], allocator: Type[CachingAllocator],
        capacity: Optional[int]) -> Dict[str, Any]:
    alloc = allocator(capacity)
    for n in trace["setup"]:
        alloc.malloc(n)
    for n in trace["persistent"]:
        alloc.malloc(n)
    for seq in lens:
        live: Dict[int, Any] = {}
        for kind, key, nbytes in sizes_at(trace, seq):
            if kind == "a":
                live[key] = alloc.malloc(nbytes)
            else:
                alloc.free(live.pop(key))
    return {"peak_allocated_gib": round(alloc.stats.peak_allocated / GIB, 3),
            "peak_reserved_gib": round(alloc.stats.peak_reserved / GIB, 3),
            "releases": alloc.stats.releases, "longest": max(lens)}


def transient_at(cap: int) -> float:
    """The estimator's transient length-dependent terms (GiB) of the recorded job at ``cap``."""
    from calibration.alloc_trace import MODELS
    from preflight.estimate import EstimateInput, estimate
    from preflight.estimate.arch import from_hf_config
    from preflight.estimate.length_cache import LENGTH_TERMS

    model_type, cfg = MODELS["qwen-7b"]
    arch = from_hf_config(dict(cfg, model_type=model_type, architectures=["Qwen2ForCausalLM"]),
                          name="qwen-7b")
    inp = EstimateInput(arch=arch, mode="train", precision="bf16", optimizer="adamw",
                        micro_batch=1, seq_len=cap, grad_ckpt=True, attention="sdpa", lora_r=8,
                        lora_targets=("q_proj", "k_proj", "v_proj"), lora_dropout=0.05,
                        torch_version="2.13", transformers_version="5.24", device="cpu")
    est = estimate(inp)
    _, where = est.tensor_peak()
    return sum(v for t, v in est.phases[where].items() if t in LENGTH_TERMS) / GIB


def experiment(trace: Dict[str, Any], steps: int, capacity: Optional[int],
               caps: Tuple[int, ...] = CAPS) -> List[Dict[str, Any]]:
    rows = []
    for cap in caps:
        transient = transient_at(cap)
        fixed = {name: run(trace, [cap] * 3, cls, capacity) for name, cls in ALLOCATORS.items()}
        for mean in MEAN_TO_CAP:
            for trunc in TRUNCATION:
                lens = lengths(steps, cap, mean * cap, trunc)
                for order in ORDERS:
                    seq = lens if order == "shuffled" else group_by_length(lens)
                    for name, cls in ALLOCATORS.items():
                        r = run(trace, seq, cls, capacity)
                        excess = r["peak_reserved_gib"] - fixed[name]["peak_reserved_gib"]
                        row = {"cap": cap, "mean_to_cap": mean, "truncation": trunc,
                               "order": order, "allocator": name, **r,
                               "fixed_reserved_gib": fixed[name]["peak_reserved_gib"],
                               "fixed_allocated_gib": fixed[name]["peak_allocated_gib"],
                               "transient_at_cap_gib": round(transient, 3),
                               "ratio": round(excess / transient, 3)}
                        rows.append(row)
                        print(json.dumps(row), flush=True)
    return rows


def summary(rows: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Median, low and high ratio per (order, allocator) over the distributions and caps."""
    out: Dict[str, Any] = {}
    for order in ORDERS:
        for name in ALLOCATORS:
            rs = sorted(r["ratio"] for r in rows if r["order"] == order and r["allocator"] == name)
            if rs:
                out[f"{order}/{name}"] = {"runs": len(rs), "median": statistics.median(rs),
                                          "low": rs[0], "high": rs[-1]}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace", help="JSON from alloc_trace.shape_trace (qwen-7b)")
    ap.add_argument("--steps", type=int, default=150)
    ap.add_argument("--capacity-gib", type=float, default=78.65)
    ap.add_argument("--cap", type=int, action="append",
                    help="run only these caps (repeatable); --merge joins the outputs")
    ap.add_argument("--merge", type=Path, nargs="*", help="outputs of --cap runs to join into --out")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    if args.merge:
        rows = [r for p in args.merge for r in json.loads(p.read_text(encoding="utf-8"))["rows"]]
        first = json.loads(args.merge[0].read_text(encoding="utf-8"))
        doc = {"about": __doc__.split("\n\n")[0], "steps": first["steps"],
               "capacity_gib": first["capacity_gib"], "rows": rows, "summary": summary(rows)}
        print(json.dumps(doc["summary"], indent=1))
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        return
    trace = json.loads(Path(args.trace).read_text(encoding="utf-8"))
    capacity = int(args.capacity_gib * GIB) if args.capacity_gib > 0 else None
    rows = experiment(trace, args.steps, capacity, tuple(args.cap or CAPS))
    doc = {"about": __doc__.split("\n\n")[0], "steps": args.steps,
           "capacity_gib": args.capacity_gib, "rows": rows, "summary": summary(rows)}
    print(json.dumps(doc["summary"], indent=1))
    if args.out:
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
