"""Reserved above allocated memory over training steps of ONE fixed length, without a GPU:
allocation traces recorded on fake tensors (``calibration/alloc_trace.py``) replayed through
the simulator of the CUDA caching allocator (``calibration/caching_allocator.py``).

Even when every batch has the same shape, ``torch.cuda.memory_reserved`` ends above the
allocated peak: best-fit splitting of the large blocks freed by one phase of the step (the
checkpoint recomputation, the logits and loss, a layer's backward) leaves free remainders
that the next request of another size cannot use, so the allocator takes new segments. The
estimator's ``fragmentation`` term charged 2.43% of the allocated memory for this (one OOM
message, an inference job); the simulated training steps below hold more, in proportion to
the step's transient length-dependent tensors (``length_cache.LENGTH_TERMS``: recomputation,
backward transients, logits and loss, held outputs).

For each job it prints the simulated allocated and reserved peaks, the estimator's tensor peak
for the same job (a check that both describe the same step) and the estimator's transient
length-dependent bytes (their largest over the phases); ``ratio`` is the reserved excess per
byte of those transients. The fixed-length runs of ``calibration/data/variable_length.json``
(est10: Qwen-7B and Yi-6B shapes, LoRA, 512-8,192 tokens) are read back and reported the same
way; the runs recorded here add the shapes of the rows the estimator under-estimated in
reserved memory (Llama-2-7B LoRA with eager attention at 4 x 2,048 tokens as in llama-recipes'
FSDP pull request, rank-64 LoRA on every projection as in Answer.AI's fsdp_qlora note,
Llama-3.2-3B at 4 x 400 tokens without checkpointing as in PEFT's MetaMathQA comparison, full
fine-tunes). None of the public rows is read.

What the replay leaves out (alloc_trace.py): kernels' own workspaces, cuBLAS workspaces,
other streams (FSDP's all-gather and reduce-scatter streams keep their own pools), and the
load. The summary's median and 90th percentile (``constants.STEP_CACHE_RATIO`` and
``STEP_CACHE_HI``) leave out a run whose peak is the optimizer step, and an est10 run whose
allocator released segments (it reached that run's capacity).

Whether the verdict should count the excess: ``--min-capacity CASE ...`` searches the smallest
capacity at which a job's replay does not run out of memory. The allocator gives back only
segments that are wholly free, so the part of the excess it cannot give back is fragmentation
a job can die of (``"min_capacity"`` in the data file).

Usage (imports torch, transformers and peft; calibration only)::

    python -m calibration.fixed_length --out calibration/data/fixed_length.json
    python -m calibration.fixed_length --out calibration/data/fixed_length.json \\
        --min-capacity llama2-7b-lora-qv-eager-b4-s2048 llama2-7b-lora-r64-all-b4-s2048 \\
        llama32-3b-lora-qv-nockpt-b4-s400
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

GIB = 1 << 30
LLAMA2_7B = dict(hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
                 num_key_value_heads=32, vocab_size=32000, max_position_embeddings=4096,
                 rms_norm_eps=1e-5, tie_word_embeddings=False)
LLAMA32_3B = dict(LLAMA2_7B, hidden_size=3072, intermediate_size=8192, num_hidden_layers=28,
                  num_attention_heads=24, num_key_value_heads=8, vocab_size=128256,
                  tie_word_embeddings=True)
ALL_PROJ = ["q_proj", "k_proj", "v_proj", "up_proj", "down_proj", "gate_proj"]
#: (name, config, case fields): Llama-architecture jobs, bf16 weights, AdamW (foreach)
CASES: List[Tuple[str, Dict[str, Any], Dict[str, Any]]] = [
    ("llama2-7b-lora-qv-eager-b4-s2048", LLAMA2_7B,
     dict(batch=4, seq_len=2048, attention="eager", lora_r=8, lora_targets=["q_proj", "v_proj"])),
    ("llama2-7b-lora-qv-sdpa-b4-s2048", LLAMA2_7B,
     dict(batch=4, seq_len=2048, lora_r=8, lora_targets=["q_proj", "v_proj"])),
    ("llama2-7b-lora-qv-eager-b1-s2048", LLAMA2_7B,
     dict(batch=1, seq_len=2048, attention="eager", lora_r=8, lora_targets=["q_proj", "v_proj"])),
    ("llama2-7b-lora-r64-all-b1-s512", LLAMA2_7B,
     dict(batch=1, seq_len=512, lora_r=64, lora_dropout=0.1, lora_targets=ALL_PROJ)),
    ("llama2-7b-lora-r64-all-b1-s2048", LLAMA2_7B,
     dict(batch=1, seq_len=2048, lora_r=64, lora_dropout=0.1, lora_targets=ALL_PROJ)),
    ("llama2-7b-lora-r64-all-b4-s2048", LLAMA2_7B,
     dict(batch=4, seq_len=2048, lora_r=64, lora_dropout=0.1, lora_targets=ALL_PROJ)),
    ("llama2-7b-lora-r64-all-b6-s2048", LLAMA2_7B,
     dict(batch=6, seq_len=2048, lora_r=64, lora_dropout=0.1, lora_targets=ALL_PROJ)),
    ("llama2-7b-lora-r64-all-b2-s4096", LLAMA2_7B,
     dict(batch=2, seq_len=4096, lora_r=64, lora_dropout=0.1, lora_targets=ALL_PROJ)),
    ("llama2-7b-full-nockpt-b2-s512", LLAMA2_7B, dict(batch=2, seq_len=512, grad_ckpt=False)),
    ("llama2-7b-full-ckpt-b2-s512", LLAMA2_7B, dict(batch=2, seq_len=512)),
    ("llama2-7b-full-ckpt-b2-s1024", LLAMA2_7B, dict(batch=2, seq_len=1024)),
    ("llama32-3b-full-nockpt-b4-s400", LLAMA32_3B, dict(batch=4, seq_len=400, grad_ckpt=False)),
    ("llama32-3b-lora-qv-nockpt-b4-s400", LLAMA32_3B,
     dict(batch=4, seq_len=400, grad_ckpt=False, lora_r=32, lora_targets=["q_proj", "v_proj"])),
]


def replay(rec: Dict[str, Any], repeats: int = 3, capacity: Optional[int] = None) -> Dict[str, Any]:
    """The load, the first micro-step, the second, the optimizer step, then the second
    micro-step ``repeats`` times more (keys made unique per repetition). With ``capacity`` the
    allocator releases cached segments when it is reached and raises ``OutOfMemory`` when
    that does not help."""
    from calibration.caching_allocator import CachingAllocator

    alloc = CachingAllocator(capacity)
    live: Dict[Any, Any] = {}
    for kind, key, n in rec["setup"]:
        if kind == "a":
            live[key] = alloc.malloc(n)
    seq = [rec["steps"][0], rec["steps"][1], rec["optim"]] + [rec["steps"][1]] * repeats
    for i, events in enumerate(seq):
        for kind, key, n in events:
            own = (i, key) if i >= 3 else key
            if kind == "a":
                live[own] = alloc.malloc(n)
            elif own in live:
                alloc.free(live.pop(own))
            elif key in live:
                alloc.free(live.pop(key))
    s = alloc.stats
    return {"peak_allocated": s.peak_allocated, "peak_reserved": s.peak_reserved,
            "releases": s.releases, "segments": s.segments}


def min_capacity(name: str, config: Dict[str, Any], fields: Dict[str, Any]) -> Dict[str, Any]:
    """The smallest capacity (to 16 MiB) at which the job's replay does not run out of memory:
    how much of the reserved excess the allocator can give back before an OOM
    (``release_cached_blocks`` frees only segments that are wholly free)."""
    from calibration.alloc_trace import record
    from calibration.caching_allocator import OutOfMemory
    from calibration.matrix import Case

    case = dict(name=name, model_type="llama", task="causal-lm", hf_config=dict(config), batch=1,
                precision="bf16", grad_ckpt=True, attention="sdpa")
    case.update({k: tuple(v) if k == "lora_targets" else v for k, v in fields.items()})
    rec = record(Case(**case))
    free = replay(rec)
    lo, hi = free["peak_allocated"], free["peak_reserved"]
    while hi - lo > 16 * 2 ** 20:
        mid = (lo + hi) // 2
        try:
            replay(rec, capacity=mid)
            hi = mid
        except OutOfMemory:
            lo = mid
    return {"name": name, "simulated_allocated_gib": round(free["peak_allocated"] / GIB, 3),
            "simulated_reserved_gib": round(free["peak_reserved"] / GIB, 3),
            "min_capacity_gib": round(hi / GIB, 3),
            "releasable_share": round((free["peak_reserved"] - hi)
                                      / max(free["peak_reserved"] - free["peak_allocated"], 1), 3)}


def estimator_view(config: Dict[str, Any], fields: Dict[str, Any]) -> Tuple[float, float, str]:
    """(tensor peak, largest transient length-dependent bytes over the phases) in GiB and the
    phase of the tensor peak, the job as the estimator sees it (transformers 5.24 / torch 2.13
    on CPU, the recording's)."""
    from preflight.estimate import EstimateInput, estimate
    from preflight.estimate.arch import from_hf_config
    from preflight.estimate.length_cache import LENGTH_TERMS

    arch = from_hf_config(dict(config, model_type=config.get("model_type", "llama"),
                               architectures=[config.get("arch", "LlamaForCausalLM")]), name="case")
    f = dict(fields)
    kw: Dict[str, Any] = dict(micro_batch=f.get("batch", 1), seq_len=f["seq_len"],
                              grad_ckpt=f.get("grad_ckpt", True), attention=f.get("attention", "sdpa"))
    if f.get("lora_r"):
        kw.update(lora_r=f["lora_r"], lora_targets=tuple(f["lora_targets"]),
                  lora_dropout=f.get("lora_dropout", 0.05))
    est = estimate(EstimateInput(arch=arch, mode="train", precision="bf16", optimizer="adamw",
                                 torch_version="2.13", transformers_version="5.24", device="cpu", **kw))
    peak, where = est.tensor_peak()
    transient = max(sum(v for t, v in ph.items() if t in LENGTH_TERMS) for ph in est.phases.values())
    return peak / GIB, transient / GIB, where


def record_case(name: str, config: Dict[str, Any], fields: Dict[str, Any]) -> Dict[str, Any]:
    from calibration.alloc_trace import record
    from calibration.matrix import Case

    case = dict(name=name, model_type="llama", task="causal-lm", hf_config=dict(config), batch=1,
                precision="bf16", grad_ckpt=True, attention="sdpa")
    case.update({k: tuple(v) if k == "lora_targets" else v for k, v in fields.items()})
    t = time.time()
    sim = replay(record(Case(**case)))
    peak, transient, where = estimator_view(config, fields)
    alloc, reserved = sim["peak_allocated"] / GIB, sim["peak_reserved"] / GIB
    return {"name": name, "case": fields, "simulated_allocated_gib": round(alloc, 3),
            "simulated_reserved_gib": round(reserved, 3), "releases": sim["releases"],
            "estimator_tensor_peak_gib": round(peak, 3), "estimator_peak_phase": where,
            "estimator_transient_gib": round(transient, 3), "excess_gib": round(reserved - alloc, 3),
            "ratio": round((reserved - alloc) / transient, 3) if transient else None,
            "seconds": round(time.time() - t)}


def est10_fixed_runs() -> List[Dict[str, Any]]:
    """The fixed-length runs of calibration/data/variable_length.json in the same form."""
    from calibration.alloc_trace import MODELS

    doc = json.loads((Path(__file__).parent / "data" / "variable_length.json").read_text(encoding="utf-8"))
    out = []
    for run, body in doc["runs"].items():
        model = "qwen-7b" if "qwen" in run else "yi-6b"
        model_type, cfg = MODELS[model]
        config = dict(cfg, model_type=model_type,
                      arch="Qwen2ForCausalLM" if model_type == "qwen2" else "LlamaForCausalLM")
        for r in body["rows"]:
            f = r["fixed"]
            fields = dict(seq_len=r["max_length"], grad_ckpt="nockpt" not in run, lora_r=8,
                          lora_targets=["q_proj", "k_proj", "v_proj"])
            peak, transient, where = estimator_view(config, fields)
            excess = f["peak_reserved"] - f["peak_allocated"]
            out.append({"name": f"est10:{run}-s{r['max_length']}", "case": fields,
                        "simulated_allocated_gib": f["peak_allocated"],
                        "simulated_reserved_gib": f["peak_reserved"], "releases": f["releases"],
                        "estimator_tensor_peak_gib": round(peak, 3), "estimator_peak_phase": where,
                        "estimator_transient_gib": round(transient, 3), "excess_gib": round(excess, 3),
                        "ratio": round(excess / transient, 3) if transient else None})
    return out


def summary(runs: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Median, minimum, 90th percentile and maximum of ``ratio`` over the runs whose peak is a forward or backward phase
    (where the transient tensors live): a run that peaks at the optimizer step (full
    fine-tunes: the foreach temporaries of every weight) holds a different excess, and a run
    whose allocator released segments stopped at its capacity."""
    used = [r for r in runs if r["ratio"] is not None and not r["releases"]
            and r["estimator_peak_phase"] in ("forward", "backward")]
    ratios = sorted(r["ratio"] for r in used)
    p90 = ratios[math.ceil(0.9 * len(ratios)) - 1]
    return {"runs": len(ratios), "median": statistics.median(ratios), "min": ratios[0], "p90": p90,
            "max": ratios[-1],
            "left_out": sorted(r["name"] for r in runs if r not in used)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--summary-only", action="store_true",
                    help="recompute the summary of the runs already in --out")
    ap.add_argument("--min-capacity", nargs="+", metavar="CASE",
                    help="only search the smallest capacity of these cases (stored in --out)")
    args = ap.parse_args()
    if args.min_capacity:
        doc = json.loads(args.out.read_text(encoding="utf-8"))
        doc["min_capacity"] = [min_capacity(*c) for c in CASES if c[0] in args.min_capacity]
        for r in doc["min_capacity"]:
            print(r)
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        return
    if args.summary_only:
        doc = json.loads(args.out.read_text(encoding="utf-8"))
    else:
        runs = [record_case(*c) for c in CASES]
        doc = {"about": __doc__.split("\n\n")[0], "runs": runs + est10_fixed_runs()}
    doc["summary"] = summary(doc["runs"])
    for r in doc["runs"]:
        print(f"{r['name']:42s} alloc {r['simulated_allocated_gib']:6.2f} (est {r['estimator_tensor_peak_gib']:6.2f}) "
              f"reserved {r['simulated_reserved_gib']:6.2f} transient {r['estimator_transient_gib']:5.2f} "
              f"ratio {r['ratio']} releases {r['releases']}")
    print(doc["summary"])
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
