"""Reserved memory a bitsandbytes 4-bit base adds to a LoRA training step (est59; evidence, no estimator term).

Every 4-bit matmul allocates the whole dequantized weight just before it runs and frees it just after
(bitsandbytes ``MatMul4Bit``, forward, checkpoint recomputation and backward; est9's ``dequant_transient``).
Interleaved with the step's activations, those weight-sized blocks can be split by other requests, so the
allocator takes new segments for the next dequantization. Measured here without a GPU, as
``calibration/fixed_length.py`` does: fake-tensor traces of Llama-shaped LoRA steps (every projection, rank 8,
dropout 0, checkpointing, bf16 weights, batch 1), with and without the NF4 stand-in of
``calibration/alloc_trace.py`` (``nf4=True``), replayed through the caching allocator simulator, beside the
estimator's reserved figure for the same inputs. The 4-bit excess of a run is

    (simulated reserved - estimated reserved) with NF4  -  the same without NF4

which leaves out what both share (the step cache ``constants.STEP_CACHE_RATIO`` stands for, and the SDPA mask the
CPU recording materialises at long lengths). ``blocks`` is that excess in units of the largest dequantized block
matrix (``dequant.dequant_transients``). Result (docs/calibration.md, est59): -0.05 to +0.47 GiB with no order
in the width or the length (Llama-2-7B 0.47 at 1k-4k, 0.05 at 8k, 0.39 at 16k-32k; 13B widths 0.45 at 1k, -0.04
at 4k; TinyLlama 0.01 and -0.05): no size rule follows, and no term was added. None of the public rows is read.

Usage (imports torch, transformers and peft; calibration only)::

    python -m calibration.nf4_dequant_cache --out calibration/data/nf4_dequant_cache.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from calibration.fixed_length import LLAMA2_7B

GIB = 1 << 30
TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
SHAPES: Dict[str, Dict[str, Any]] = {
    "llama2-7b": dict(LLAMA2_7B),
    "llama2-13b": dict(LLAMA2_7B, hidden_size=5120, intermediate_size=13824, num_hidden_layers=40,
                       num_attention_heads=40, num_key_value_heads=40),
    "tinyllama-1.1b": dict(LLAMA2_7B, hidden_size=2048, intermediate_size=5632, num_hidden_layers=22,
                           num_attention_heads=32, num_key_value_heads=4),
}
CASES: List[Tuple[str, int]] = [("llama2-7b", n) for n in (1024, 2048, 4096, 8192, 16384, 32768)] + \
    [("llama2-13b", 1024), ("llama2-13b", 4096), ("tinyllama-1.1b", 1024), ("tinyllama-1.1b", 4096)]


def estimator_view(config: Dict[str, Any], seq: int, nf4: bool) -> Tuple[float, float, float]:
    """(tensor peak, reserved peak without the CUDA context, largest dequantized block) in bytes."""
    from preflight.estimate import EstimateInput, estimate
    from preflight.estimate.arch import from_hf_config
    from preflight.estimate.dequant import dequant_transients
    from preflight.estimate.model import _params

    arch = from_hf_config(dict(config, model_type="llama", architectures=["LlamaForCausalLM"]), name="case")
    kw: Dict[str, Any] = dict(micro_batch=1, seq_len=seq, grad_ckpt=True, attention="sdpa", lora_r=8,
                              lora_targets=TARGETS, lora_dropout=0.0)
    if nf4:
        kw.update(quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=False)
    inp = EstimateInput(arch=arch, mode="train", precision="bf16", optimizer="adamw", torch_version="2.13",
                        transformers_version="5.0", device="cpu", **kw)
    est = estimate(inp)
    tensor, _ = est.tensor_peak()
    phase = est.phases[est.phase]
    prm = _params(arch, None)
    _, block = dequant_transients(inp, arch, prm, 2)
    return float(tensor), float(est.peak_bytes - phase.get("cuda_context", 0)), block


def run_case(shape: str, seq: int) -> Dict[str, Any]:
    from calibration.alloc_trace import record
    from calibration.fixed_length import replay
    from calibration.matrix import Case

    out: Dict[str, Any] = {"shape": shape, "seq_len": seq}
    t = time.time()
    for nf4 in (True, False):
        case = Case(name=f"{shape}-lora-all-r8-{'nf4-' if nf4 else ''}s{seq}", model_type="llama",
                    task="causal-lm", hf_config=dict(SHAPES[shape]), batch=1, seq_len=seq, precision="bf16",
                    grad_ckpt=True, attention="sdpa", lora_r=8, lora_alpha=16, lora_dropout=0.0,
                    lora_targets=TARGETS)
        sim = replay(record(case, nf4=nf4))
        tensor, reserved, block = estimator_view(SHAPES[shape], seq, nf4)
        tag = "nf4" if nf4 else "bf16"
        out[tag] = {"simulated_allocated_gib": round(sim["peak_allocated"] / GIB, 3),
                    "simulated_reserved_gib": round(sim["peak_reserved"] / GIB, 3), "releases": sim["releases"],
                    "estimated_tensor_gib": round(tensor / GIB, 3),
                    "estimated_reserved_gib": round(reserved / GIB, 3)}
        if nf4:
            out["block_gib"] = round(block / GIB, 4)
    gap = {tag: out[tag]["simulated_reserved_gib"] - out[tag]["estimated_reserved_gib"] for tag in ("nf4", "bf16")}
    out["nf4_excess_gib"] = round(gap["nf4"] - gap["bf16"], 3)
    out["blocks"] = round(out["nf4_excess_gib"] / out["block_gib"], 2)
    out["seconds"] = round(time.time() - t)
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    runs = []
    for shape, seq in CASES:
        runs.append(run_case(shape, seq))
        print(json.dumps(runs[-1]), flush=True)
    summary = {"median_blocks": round(statistics.median(r["blocks"] for r in runs), 2),
               "range": [min(r["blocks"] for r in runs), max(r["blocks"] for r in runs)],
               "by_shape_gib": {shape: [r["nf4_excess_gib"] for r in runs if r["shape"] == shape] for shape in SHAPES}}
    print(json.dumps(summary))
    if args.out:
        args.out.write_text(json.dumps({"about": __doc__.split("\n\n")[0], "summary": summary, "runs": runs},
                                       indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
