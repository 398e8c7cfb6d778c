"""The fragmentation a logits-dominated full fine-tune needs at the card's edge (est62, issue 17).

held-out-13's one false OOM (Liger-Kernel's HF example, Llama-3-8B FSDP4, batch 48 x 512, transformers 4.43.3,
``max_memory_allocated`` 66.7 GiB on an A100 80GB, the job ran) is a card-edge row: the estimator's allocated peak is
right (67.1 GiB) and its point adds ``fragmentation`` = ``STEP_CACHE_RATIO`` x the step's transient length-dependent
tensors (35.2 GiB of logits and loss: 12.3 GiB), which lands 1.2 GiB over the card. The job ran, so at its peak the
allocator held at most 79.15 - 67.1 - context - NCCL = about 11.4 GiB above its allocated bytes.

This script measures, without a GPU, the smallest capacity at which the same step shape completes: allocation traces
recorded on fake tensors (``calibration/alloc_trace.py``) replayed through the simulator of the caching allocator
(``calibration/caching_allocator.py``), searched to 16 MiB (``fixed_length.min_capacity``: the allocator gives back
only wholly free segments before an out-of-memory error). Cases: Llama-3-8B shapes (the catalog's), full fine-tune,
bf16, activation checkpointing, SDPA, 512 tokens, batch 8 and 48, 2/8/32 layers; the loss either as the installed
transformers computes it (``ForCausalLMLoss``: bf16 logits, one fp32 upcast, log_softmax) or laid out as 4.43 did
(``--loss 4.43``: the model's ``logits.float()``, the shifted ``.contiguous()`` fp32 copy, fp32 log_softmax; the bf16
head output stays referenced by the installed model's frame while the loss runs, 2 bytes per token x vocab more than
4.43 held). Not modelled: FSDP (its all-gather and reduce-scatter streams keep their own pools; here the whole model
and its gradients live in one pool), the optimizer's dtype (AdamW on the bf16 model).

For each case it prints the simulated allocated and reserved peaks, the smallest capacity, the excess the replay
needs above its allocated peak (``needed_excess_gib``), and the estimator's ``fragmentation`` for the same job
(transformers 4.43 / torch 2.4 for the 4.43 layout, else 5.24 / 2.13) and its tensor peak.

Usage (imports torch and transformers; calibration only)::

    python -m calibration.est62_card_edge --out calibration/data/est62_card_edge.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

GIB = 1 << 30
LLAMA3_8B = dict(hidden_size=4096, intermediate_size=14336, num_attention_heads=32, num_key_value_heads=8,
                 vocab_size=128256, max_position_embeddings=8192, rms_norm_eps=1e-5, tie_word_embeddings=False,
                 rope_theta=500000.0)
#: (layers, batch, loss layout)
CASES = [(2, 48, "installed"), (8, 48, "installed"), (32, 48, "installed"), (32, 8, "installed"),
         (2, 48, "4.43"), (8, 48, "4.43"), (32, 48, "4.43"), (32, 8, "4.43")]


def loss_443(logits: Any, labels: Any, vocab_size: int, **_: Any) -> Any:
    """transformers 4.43's causal-LM loss layout: fp32 upcast, shifted contiguous copy, cross-entropy."""
    import torch

    logits = logits.float()
    shift_logits = logits[..., :-1, :].contiguous()
    shift_labels = labels[..., 1:].contiguous()
    return torch.nn.functional.cross_entropy(shift_logits.view(-1, vocab_size), shift_labels.view(-1))


def _record(layers: int, batch: int, loss: str) -> Dict[str, Any]:
    from calibration import build
    from calibration.alloc_trace import record
    from calibration.matrix import Case

    case = Case(name=f"llama3-8b-{layers}l-full-ckpt-b{batch}-s512-{loss}", model_type="llama", task="causal-lm",
                hf_config=dict(LLAMA3_8B, num_hidden_layers=layers), batch=batch, seq_len=512, precision="bf16",
                grad_ckpt=True, attention="sdpa")
    if loss == "installed":
        return record(case)
    original = build.build_model

    def with_443(c: Any, device: Any) -> Any:
        model = original(c, device)
        model.loss_function = loss_443  # type: ignore[assignment]
        return model

    build.build_model = with_443  # type: ignore[assignment]
    try:
        return record(case)
    finally:
        build.build_model = original


def min_capacity(rec: Dict[str, Any]) -> Dict[str, float]:
    from calibration.caching_allocator import OutOfMemory
    from calibration.fixed_length import replay

    free = replay(rec)
    lo, hi = free["peak_allocated"], free["peak_reserved"]
    while hi - lo > 16 * 2 ** 20:
        mid = (lo + hi) // 2
        try:
            replay(rec, capacity=mid)
            hi = mid
        except OutOfMemory:
            lo = mid
    return {"simulated_allocated_gib": round(free["peak_allocated"] / GIB, 3),
            "simulated_reserved_gib": round(free["peak_reserved"] / GIB, 3),
            "min_capacity_gib": round(hi / GIB, 3),
            "needed_excess_gib": round((hi - free["peak_allocated"]) / GIB, 3)}


def estimator_fragmentation(layers: int, batch: int, loss: str) -> Dict[str, Any]:
    from preflight.estimate import EstimateInput, estimate
    from preflight.estimate.arch import from_hf_config

    arch = from_hf_config(dict(LLAMA3_8B, num_hidden_layers=layers, model_type="llama",
                               architectures=["LlamaForCausalLM"]), name="case")
    versions = ("4.43.3", "2.4.0") if loss == "4.43" else ("5.24", "2.13")
    est = estimate(EstimateInput(arch=arch, mode="train", precision="bf16", optimizer="adamw", micro_batch=batch,
                                 seq_len=512, grad_ckpt=True, attention="sdpa", transformers_version=versions[0],
                                 torch_version=versions[1], device="cpu"))
    peak, where = est.tensor_peak()
    return {"estimator_tensor_peak_gib": round(peak / GIB, 3), "estimator_peak_phase": where,
            "estimator_fragmentation_gib": round(est.phases[where].get("fragmentation", 0) / GIB, 3)}


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    runs = []
    for layers, batch, loss in CASES:
        t = time.time()
        row: Dict[str, Any] = {"layers": layers, "batch": batch, "seq_len": 512, "loss": loss}
        row.update(min_capacity(_record(layers, batch, loss)))
        row.update(estimator_fragmentation(layers, batch, loss))
        row["seconds"] = round(time.time() - t)
        runs.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        doc = {"about": __doc__.split("\n\n")[0], "runs": runs}
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
