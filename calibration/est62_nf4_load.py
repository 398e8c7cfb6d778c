"""Reserved memory while torchtune 0.1 builds and loads a QLoRA Llama-2-7B with torchao 0.1's NF4 (est62, issue 17).

held-out-2's torchtune QLoRA tutorial prints 9.13 GB of ``max_memory_reserved`` right after model init
(``docs/source/tutorials/qlora_finetune.rst`` at 0914d5cf). The estimator's load phase (``nf4_quantize.py``) charges the
4-bit model plus the largest weight's quantization intermediates (68 bytes an element under torchao 0.1): 6.46 GiB of
tensors. This script replays, through the simulator of the caching allocator (``calibration/caching_allocator.py``),
the allocations that code makes, read in the sources (no GPU, no torch):

1. build (``with self._device``, bf16 default dtype; ``torchtune/models/llama2/_component_builders.py`` and
   ``torchtune/modules/peft/lora.py`` at ff594c23): the embedding table; per layer q, k, v, output_proj, w1, w2, w3 as
   ``LoRALinear(quantize_base=True)``, each creating an ``nn.Linear`` bf16 weight, quantizing it (``to_nf4``) and
   dropping the bf16 weight, then its LoRA A and B (rank 8, bf16); the norms; the bf16 output projection;
2. ``model.load_state_dict``: per NF4 weight in state-dict order, the checkpoint tensor copied to the GPU
   (``inplace_copy``: ``to_nf4(args[0][1].to(dest_tensor.device))``), quantized, its parts replacing the old ones.

``to_nf4`` of ``n`` bf16 elements (pytorch/ao v0.1 ``nf4tensor.py``): ``double_quantize_scalers`` (``blocks.abs()``,
2n, freed; the block scalers); ``convert_to_norm_float_weight``: ``blocks.abs()`` again (2n, freed), ``scaled_blocks``
(2n), ``(value - nf4)`` (32n) and its ``abs`` (32n; the difference freed), ``diff.min(dim=-1)`` (values 2n, int64
indices 8n; ``diff`` and the values freed), the packing ``quantized_blocks[::2] << 4`` (int64, 4n) ``| ...[1::2]`` (4n),
``.to(torch.uint8)`` (n/2, kept); the int64 temporaries and ``scaled_blocks`` freed on return; kept beside the data:
the int8 block scalers (n/64), the fp32 scaler-block factors (n/64/256 x 4) and the mean.

It prints the simulated allocated and reserved peaks at the end of the load, beside the estimator's load phase for the
same job (``calibration/data/est62_nf4_load.json``).

Usage (pure Python)::

    python -m calibration.est62_nf4_load --out calibration/data/est62_nf4_load.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Dict, List, Optional

GIB = 1 << 30
HIDDEN, FFN, LAYERS, VOCAB, RANK = 4096, 11008, 32, 32000, 8
#: (name, out, in) of the quantized weights of one layer, in module order (q, k, v, output_proj; w1, w2, w3)
LAYER = [("q", HIDDEN, HIDDEN), ("k", HIDDEN, HIDDEN), ("v", HIDDEN, HIDDEN), ("o", HIDDEN, HIDDEN),
         ("w1", FFN, HIDDEN), ("w2", HIDDEN, FFN), ("w3", FFN, HIDDEN)]


class Replay:
    def __init__(self) -> None:
        from calibration.caching_allocator import CachingAllocator

        self.alloc = CachingAllocator(None)
        self.live: Dict[str, Any] = {}

    def a(self, key: str, nbytes: float) -> None:
        self.live[key] = self.alloc.malloc(int(nbytes))

    def f(self, key: str) -> None:
        self.alloc.free(self.live.pop(key))


def nf4_parts(r: Replay, key: str, n: int) -> None:
    """``to_nf4`` of ``n`` bf16 elements: leaves ``key``'s data, scalers and factors allocated."""
    r.a("abs", 2 * n)                                   # double_quantize_scalers: blocks.abs()
    r.a(key + ":scalers1", n // 64 * 2)
    r.f("abs")
    r.a(key + ":qscalers", n // 64)                     # int8 block scalers (kept)
    r.a(key + ":factor", max(n // 64 // 256, 1) * 4)    # fp32 factors per scaler block (kept)
    r.a(key + ":mean", 4)
    r.f(key + ":scalers1")
    r.a("abs", 2 * n)                                   # convert_to_norm_float_weight: get_block_absmax
    r.a("scalers", n // 64 * 2)
    r.f("abs")
    r.a("scaled", 2 * n)
    r.a("sub", 32 * n)                                  # (value - nf4)
    r.a("diff", 32 * n)                                 # .abs()
    r.f("sub")
    r.a("values", 2 * n)                                # diff.min(dim=-1)
    r.a("indices", 8 * n)
    r.f("diff")
    r.f("values")
    r.a("shift", 4 * n)                                 # quantized_blocks[::2] << 4 (int64, n / 2)
    r.a("combined", 4 * n)                              # | quantized_blocks[1::2]
    r.f("shift")
    r.a(key + ":data", n // 2)                          # .to(torch.uint8) (kept)
    r.f("combined")
    r.f("indices")
    r.f("scaled")
    r.f("scalers")


def run() -> Dict[str, Any]:
    r = Replay()
    r.a("tok_embeddings", VOCAB * HIDDEN * 2)
    for layer in range(LAYERS):
        for name, out, inp in LAYER:
            key = f"{layer}.{name}"
            r.a("linear", out * inp * 2)                # nn.Linear(in, out) in bf16 on the GPU
            nf4_parts(r, key, out * inp)
            r.f("linear")
            r.a(key + ":lora_a", RANK * inp * 2)
            r.a(key + ":lora_b", out * RANK * 2)
        r.a(f"{layer}.norms", 2 * HIDDEN * 2)
    r.a("norm", HIDDEN * 2)
    r.a("output", VOCAB * HIDDEN * 2)
    built = (r.alloc.stats.peak_allocated, r.alloc.stats.peak_reserved)
    for layer in range(LAYERS):                         # load_state_dict: in state-dict (module) order
        for name, out, inp in LAYER:
            key = f"{layer}.{name}"
            n = out * inp
            r.a("incoming", n * 2)                      # args[0][1].to(dest_tensor.device)
            nf4_parts(r, key + "'", n)
            for part in (":data", ":qscalers", ":factor", ":mean"):
                r.f(key + part)                         # the old parts, replaced by the new ones
            r.f("incoming")
    s = r.alloc.stats
    return {"built_peak_allocated_gib": round(built[0] / GIB, 3), "built_peak_reserved_gib": round(built[1] / GIB, 3),
            "peak_allocated_gib": round(s.peak_allocated / GIB, 3), "peak_reserved_gib": round(s.peak_reserved / GIB, 3),
            "tutorial_init_reserved_gib": round(9.13e9 / GIB, 3)}


def estimator_load() -> Dict[str, float]:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import public_accuracy as P

    from preflight.estimate import estimate

    rows = json.loads((Path(__file__).resolve().parent / "public" / "heldout2.json").read_text(encoding="utf-8"))["rows"]
    row = next(x for x in rows if x["id"] == "torchtune-tutorials-2024/llama2-7b-qlora")
    inp, _ = P.estimate_input(row["setup"])
    load = estimate(inp).phases["load"]
    return {"estimator_load_weights_gib": round(load["weights"] / GIB, 3),
            "estimator_load_transient_gib": round(load["load_transient"] / GIB, 3),
            "estimator_load_fragmentation_gib": round(load.get("fragmentation", 0) / GIB, 3)}


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    result: Dict[str, Any] = dict(run(), **estimator_load())
    print(json.dumps(result, indent=1))
    if args.out:
        doc: Dict[str, Any] = {"about": __doc__.split("\n\n")[0], "result": result}
        args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
