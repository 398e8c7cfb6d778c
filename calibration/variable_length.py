"""Reserved vs allocated memory over a run of fixed-length vs variable-length batches, without a
GPU: allocation traces recorded on fake tensors (``calibration/alloc_trace.py``) replayed
through a simulator of the CUDA caching allocator (``calibration/caching_allocator.py``).

The job is held-out-6's ms-swift LoRA run (Qwen-7B-Chat as its qwen2-equivalent config, or
Yi-6B-Chat; bf16, rank 8 on q/k/v, checkpointing, batch 1, gradient accumulation 16). A step's
trace is recorded at 512/1,024/2,048 tokens (checked at 1,536) and every allocation size is
fitted exactly in the sequence length, so a step at any length is written from the fit.

Runs compared, each ``--steps`` micro-steps on one A100 80GB (``--capacity-gib``: what
cudaMalloc can hand out, the card's 79.15 GiB less a CUDA context of about 0.5 GiB, an
assumption):

- ``fixed``: every micro-step at ``max_length`` tokens (padding to max_length);
- ``variable``: lengths drawn from the dataset's stated token statistics (cls-fudan-news-zh:
  mean 3,234, standard deviation 2,548, min 91; taken as a log-normal with that mean and
  deviation), samples longer than ``max_length`` dropped as ms-swift's
  ``truncation_strategy='delete'`` does, fixed seed.

It prints, per max length, the allocated peak and reserved peak of both runs. The dataset's
distribution shape is an assumption (only its mean, deviation and range are stated), so the
script also reports a uniform distribution over the same range as a check that the result
does not hinge on the shape.

What the trace leaves out (see alloc_trace.py): kernel workspaces inside one op, the
optimizer's temporaries after its first step (LoRA: kilobytes to megabytes), cuBLAS
workspaces. The gradients and Adam states of the adapters are allocated once after the
weights.

Usage::

    python -m calibration.variable_length --trace /tmp/est10/trace-qwen-7b.json \\
        --record qwen-7b --steps 150 --out calibration/data/variable_length.json
    # likewise --record yi-6b and --record qwen-7b-nockpt (each its own --trace file), then
    python -m calibration.variable_length --out calibration/data/variable_length.json --ratios
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path
from typing import Any, Dict, List, Optional

from calibration.alloc_trace import sizes_at
from calibration.caching_allocator import CachingAllocator, OutOfMemory

GIB = 1 << 30
MEAN, STD, MIN_LEN, MAX_LEN = 3234.0, 2548.0, 91, 19548
MAX_LENGTHS = (512, 1024, 2048, 4096, 8192)


def lognormal_lengths(n: int, max_length: int, seed: int = 0) -> List[int]:
    """``n`` sample lengths with the stated mean and deviation, those above max_length
    dropped (drawn again) as 'delete' truncation drops them."""
    sigma2 = math.log(1.0 + (STD / MEAN) ** 2)
    mu = math.log(MEAN) - sigma2 / 2
    rng = random.Random(seed)
    out: List[int] = []
    while len(out) < n:
        x = round(rng.lognormvariate(mu, math.sqrt(sigma2)))
        if MIN_LEN <= x <= min(max_length, MAX_LEN):
            out.append(x)
    return out


def uniform_lengths(n: int, max_length: int, seed: int = 0) -> List[int]:
    rng = random.Random(seed)
    return [rng.randint(MIN_LEN, max_length) for _ in range(n)]


def run(trace: Dict[str, Any], lengths: List[int], capacity: Optional[int]) -> Dict[str, Any]:
    """Replay the load and one micro-step per length; the allocator's peaks."""
    alloc = CachingAllocator(capacity)
    for n in trace["setup"]:
        alloc.malloc(n)
    for n in trace["persistent"]:
        alloc.malloc(n)
    step_peaks = []
    for i, seq in enumerate(lengths):
        live: Dict[int, Any] = {}
        before = alloc.stats.allocated
        peak = before
        for kind, key, nbytes in sizes_at(trace, seq):
            if kind == "a":
                try:
                    live[key] = alloc.malloc(nbytes)
                except OutOfMemory:
                    return {"oom": True, "step": i, "longest": max(lengths[: i + 1]),
                            "peak_allocated": alloc.stats.peak_allocated,
                            "peak_reserved": alloc.stats.peak_reserved, "releases": alloc.stats.releases,
                            "segments": alloc.stats.segments}
                peak = max(peak, alloc.stats.allocated)
            else:
                alloc.free(live.pop(key))
        if live:
            raise ValueError(f"step {i} leaves {len(live)} allocations live")
        step_peaks.append(peak)
    return {"peak_allocated": alloc.stats.peak_allocated, "peak_reserved": alloc.stats.peak_reserved,
            "releases": alloc.stats.releases, "segments": alloc.stats.segments,
            "longest": max(lengths)}


def experiment(trace: Dict[str, Any], steps: int, capacity: Optional[int]) -> List[Dict[str, Any]]:
    rows = []
    for ml in MAX_LENGTHS:
        row: Dict[str, Any] = {"max_length": ml}
        for name, lengths in (("fixed", [ml] * min(steps, 5)),
                              ("variable_lognormal", lognormal_lengths(steps, ml)),
                              ("variable_uniform", uniform_lengths(steps, ml))):
            r = run(trace, lengths, capacity)
            row[name] = {k: (round(v / GIB, 3) if k.startswith("peak") else v) for k, v in r.items()}
        # the fixed run at the longest length the variable run met: its own allocated peak
        longest = row["variable_lognormal"]["longest"]
        row["fixed_at_longest"] = {k: (round(v / GIB, 3) if k.startswith("peak") else v)
                                   for k, v in run(trace, [longest] * 3, capacity).items()}
        base = (sum(trace["setup"]) + sum(trace["persistent"])) / GIB
        f = row["fixed"]
        if f.get("oom"):
            rows.append(row)
            print(f"max_length {ml:5d}: the fixed-length run is out of memory")
            continue
        row["step_gib"] = round(f["peak_allocated"] - base, 3)
        row["excess_over_step"] = {
            name: round((row[name]["peak_reserved"] - f["peak_reserved"]) / row["step_gib"], 3)
            for name in ("variable_lognormal", "variable_uniform")}
        rows.append(row)
        v = row["variable_lognormal"]
        print(f"max_length {ml:5d}: fixed alloc {f['peak_allocated']:6.2f} reserved "
              f"{f['peak_reserved']:6.2f} | variable (lognormal, longest {v['longest']}) alloc "
              f"{v['peak_allocated']:6.2f} reserved {v['peak_reserved']:6.2f} releases "
              f"{v['releases']} | uniform reserved {row['variable_uniform']['peak_reserved']:6.2f} | "
              f"step {row['step_gib']:.2f} excess/step {row['excess_over_step']}")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace", help="JSON from alloc_trace.shape_trace (re-created "
                    "with --record MODEL when missing)")
    ap.add_argument("--record", choices=("qwen-7b", "yi-6b", "qwen-7b-nockpt", "qwen-7b-nf4"))
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--capacity-gib", type=float, default=78.65)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--ratios", action="store_true",
                    help="only (re)compute the estimator ratios of the runs already in --out")
    args = ap.parse_args()
    if args.ratios:
        doc = json.loads(args.out.read_text(encoding="utf-8"))
        doc["ratios"] = estimator_ratios(doc)
        for r in doc["ratios"]:
            print(r)
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        return
    path = Path(args.trace)
    if args.record and not path.exists():
        import functools

        from calibration.alloc_trace import lora_case, shape_trace

        model = args.record.replace("-nockpt", "").replace("-nf4", "")
        case_at = functools.partial(lora_case, model, grad_ckpt=not args.record.endswith("-nockpt"))
        path.write_text(json.dumps(shape_trace(case_at, [512, 1024, 2048], 1536,
                                               nf4=args.record.endswith("-nf4"))), encoding="utf-8")
    trace = json.loads(path.read_text(encoding="utf-8"))
    capacity = int(args.capacity_gib * GIB) if args.capacity_gib > 0 else None
    rows = experiment(trace, args.steps, capacity)
    if args.out:
        doc: Dict[str, Any] = {}
        if args.out.exists():
            doc = json.loads(args.out.read_text(encoding="utf-8"))
        doc.setdefault("about", __doc__.split("\n\n")[0])
        doc.setdefault("runs", {})[args.record or path.stem] = {
            "steps": args.steps, "capacity_gib": args.capacity_gib, "rows": rows,
            "setup_gib": round(sum(trace["setup"]) / GIB, 3),
            "events_per_step": len(trace["step"])}
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def estimator_ratios(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Per simulated run: reserved memory above the fixed-length run, per byte of the
    estimator's own length-dependent transient terms for the same job
    (``length_cache.LENGTH_TERMS`` at the tensor peak), and the estimator's tensor peak
    beside the simulated allocated peak (a check that both describe the same step)."""
    from calibration.alloc_trace import MODELS
    from preflight.estimate import EstimateInput, estimate
    from preflight.estimate.arch import from_hf_config
    from preflight.estimate.length_cache import LENGTH_TERMS

    out = []
    for run, body in doc["runs"].items():
        model = "qwen-7b" if "qwen" in run else "yi-6b"
        ckpt = "nockpt" not in run
        model_type, cfg = MODELS[model]
        arch_cls = "Qwen2ForCausalLM" if model_type == "qwen2" else "LlamaForCausalLM"
        arch = from_hf_config(dict(cfg, model_type=model_type, architectures=[arch_cls]), name=model)
        for r in body["rows"]:
            if "excess_over_step" not in r:
                continue
            # the recorded job as the estimator sees it: transformers 5.24 on CPU, SDPA
            inp = EstimateInput(arch=arch, mode="train", precision="bf16", optimizer="adamw",
                                micro_batch=1, seq_len=r["max_length"], grad_ckpt=ckpt,
                                attention="sdpa", lora_r=8, lora_targets=("q_proj", "k_proj", "v_proj"),
                                lora_dropout=0.05, torch_version="2.13", transformers_version="5.24",
                                device="cpu")
            est = estimate(inp)
            peak, where = est.tensor_peak()
            transient = sum(v for t, v in est.phases[where].items() if t in LENGTH_TERMS) / GIB
            for dist in ("variable_lognormal", "variable_uniform"):
                excess = r[dist]["peak_reserved"] - r["fixed"]["peak_reserved"]
                out.append({"run": run, "grad_ckpt": ckpt, "max_length": r["max_length"],
                            "lengths": dist.split("_", 1)[1], "excess_gib": round(excess, 3),
                            "estimator_transient_gib": round(transient, 3),
                            "ratio": round(excess / transient, 3),
                            "simulated_allocated_gib": r["fixed"]["peak_allocated"],
                            "estimator_tensor_peak_gib": round(peak / GIB, 3)})
    return out


if __name__ == "__main__":
    main()
