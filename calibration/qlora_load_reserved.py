"""Reserved above allocated memory when a 4-bit base is quantized as it loads (est53 check).

transformers' bitsandbytes integration moves each frozen Linear weight to the GPU in 16 bits and
quantizes it there (``bnb.nn.Params4bit(...).to(device)`` -> ``Params4bit._quantize``: ``w =
self.data.contiguous().to(device)``, then ``functional.quantize_4bit``, which allocates the fp32
absmax and the packed output while ``w`` is alive and, with double quantization, the 8-bit absmax
and its fp32 second-level absmax before freeing the fp32 one; ``w`` dies when ``_quantize``
returns). Every 16-bit copy is freed right after its packed weight is allocated, so the caching
allocator may keep cached remainders that later requests cannot use. ``alloc_trace.record(...,
nf4=True)`` allocates the packed weights directly (as a plain load would); this replays the same
job's steps after both loads through ``caching_allocator`` and reports the reserved excess of each.

Result (``calibration/data/qlora_load_reserved.json``, docs/calibration.md "est53"): the load leaves no
extra reserve (excess over the allocated peak 0.405 / 0.899 / 1.352 GiB with it, 0.422 / 1.099 / 1.668
without, at 512 / 2,048 / 4,096 tokens): the 16-bit copies' blocks are reused by the next weight's.

Usage (imports torch, transformers and peft; calibration only)::

    python -m calibration.qlora_load_reserved [--out calibration/data/qlora_load_reserved.json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from calibration.fixed_length import ALL_PROJ, GIB, LLAMA2_7B

CASES: List[Tuple[str, Dict[str, Any], Dict[str, Any]]] = [
    ("llama2-7b-qlora-r64-all-b1-s512", LLAMA2_7B,
     dict(batch=1, seq_len=512, lora_r=64, lora_dropout=0.1, lora_targets=ALL_PROJ)),
    ("llama2-7b-qlora-r64-all-b1-s2048", LLAMA2_7B,
     dict(batch=1, seq_len=2048, lora_r=64, lora_dropout=0.1, lora_targets=ALL_PROJ)),
    ("llama2-7b-qlora-r8-all-b1-s4096", LLAMA2_7B,
     dict(batch=1, seq_len=4096, lora_r=8, lora_dropout=0.0, lora_targets=ALL_PROJ)),
]


def quantized_numels(case: Any) -> List[Optional[int]]:
    """Per parameter, in ``model.parameters()`` order (the order ``record`` allocates them): the
    element count of a weight ``record(nf4=True)`` stores as 4-bit, else None."""
    import torch

    from calibration import build

    model = build.build_model(case, torch.device("meta"))
    out: List[Optional[int]] = []
    for name, module in model.named_modules():
        for pname, p in module.named_parameters(recurse=False):
            quant = (isinstance(module, torch.nn.Linear) and pname == "weight" and not p.requires_grad
                     and "lm_head" not in name and "lora_" not in name)
            out.append(p.numel() if quant else None)
    return out


def bnb_load(setup: List[Tuple[str, int, int]], numels: List[Optional[int]]) -> List[Tuple[str, Any, int]]:
    """The setup events with each 4-bit weight quantized on the GPU as bitsandbytes does."""
    events: List[Tuple[str, Any, int]] = []
    for i, (kind, key, n_bytes) in enumerate(setup):
        n = numels[i] if i < len(numels) else None
        if kind != "a" or not n:
            events.append((kind, key, n_bytes))
            continue
        blocks = n // 64
        events.append(("a", ("w16", key), 2 * n))              # w = self.data.to(device)
        events.append(("a", ("absmax32", key), 4 * blocks))    # absmax = torch.zeros(blocks, fp32)
        events.append(("a", key, n // 2))                      # out: the packed weight
        events.append(("a", ("qabsmax", key), blocks))         # quantize_blockwise(absmax): uint8
        events.append(("a", ("absmax2", key), 4 * max(blocks // 256, 1)))   # its fp32 absmax
        events.append(("f", ("absmax32", key), 0))             # del absmax
        events.append(("f", ("w16", key), 0))                  # w dies with _quantize
    return events


def replay(setup: List[Tuple[str, Any, int]], rec: Dict[str, Any], repeats: int = 3) -> Dict[str, Any]:
    from calibration.caching_allocator import CachingAllocator

    alloc = CachingAllocator(None)
    live: Dict[Any, Any] = {}
    for kind, key, n in setup:
        if kind == "a":
            live[key] = alloc.malloc(n)
        elif key in live:
            alloc.free(live.pop(key))
    after_load = (alloc.stats.allocated, alloc.stats.reserved)
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
    return {"after_load_allocated_gib": round(after_load[0] / GIB, 3),
            "after_load_reserved_gib": round(after_load[1] / GIB, 3),
            "peak_allocated_gib": round(s.peak_allocated / GIB, 3),
            "peak_reserved_gib": round(s.peak_reserved / GIB, 3),
            "excess_gib": round((s.peak_reserved - s.peak_allocated) / GIB, 3)}


def run_case(name: str, config: Dict[str, Any], fields: Dict[str, Any]) -> Dict[str, Any]:
    from calibration.alloc_trace import record
    from calibration.matrix import Case

    case = dict(name=name, model_type="llama", task="causal-lm", hf_config=dict(config), batch=1,
                precision="bf16", grad_ckpt=True, attention="sdpa")
    case.update({k: tuple(v) if k == "lora_targets" else v for k, v in fields.items()})
    c = Case(**case)
    t = time.time()
    rec = record(c, nf4=True)
    numels = quantized_numels(c)
    plain = replay(rec["setup"], rec)
    bnb = replay(bnb_load(rec["setup"], numels), rec)
    return {"name": name, "case": fields, "quantized_weights": sum(1 for n in numels if n),
            "plain_load": plain, "bnb_load": bnb,
            "extra_excess_gib": round(bnb["excess_gib"] - plain["excess_gib"], 3),
            "seconds": round(time.time() - t)}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    runs = []
    for name, config, fields in CASES:
        runs.append(run_case(name, config, fields))
        print(json.dumps(runs[-1]), flush=True)
    if args.out:
        args.out.write_text(json.dumps({"about": __doc__.split("\n\n")[0], "runs": runs}, indent=1),
                            encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
