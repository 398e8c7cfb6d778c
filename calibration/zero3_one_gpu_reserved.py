"""What the caching allocator keeps reserved in a DeepSpeed ZeRO-3 full fine-tune on ONE GPU (est44).

Issue 17, held-out-21's Qwen-1.8B full fine-tune (ZeRO-3 on one A100, ``finetune_ds.sh``): the
README reads 43.5 GB from 256 to 2,048 tokens, the estimate (the step's tensors) 36.0 GiB. The
question this script answers: can the blocks PyTorch's caching allocator keeps from DeepSpeed's
start-up and step transients (nvidia-smi shows reserved memory, not allocated) explain the gap?

It replays, through the allocator simulator (``calibration/caching_allocator.py``, torch's native
policy), every GPU allocation of 1 MiB or more that DeepSpeed v0.12.0 (``runtime/zero/stage3.py``,
read in the mirror of deepspeedai/DeepSpeed at tag v0.12.0; Qwen's Dockerfile installs an unpinned
``deepspeed`` next to torch 2.0.1 in late 2023) makes on one GPU with no offload, in source order:

- ``_create_fp16_partitions_with_defragmentation`` -> ``defragment`` (lines 500-530): the
  partitions go to host memory, ``empty_cache()`` returns every free segment (what the model load
  left cached is gone), then ONE flat 16-bit buffer of every partition comes back to the GPU;
- ``_create_fp32_partitions`` (line 819): per sub-group ``flat.to(device).clone().float()``: a
  16-bit clone (freed when the statement ends) and the fp32 master partition (kept);
- ``initialize_optimizer_states`` (lines 921-990): ``gradient_buffer = torch.zeros(largest
  sub-group)`` in fp32, one optimizer step per sub-group through it (FusedAdam's
  ``zeros_like`` exp_avg and exp_avg_sq, kept), then the buffer is dropped;
- ``_setup_for_real_optimizer`` (lines 463-478): the contiguous-gradients bucket
  (``reduce_bucket_size`` 16-bit elements) and ``grad_partitions_flat_buffer`` (every partition's
  16-bit gradient, kept);
- each micro-step's backward: every parameter's full 16-bit gradient, freed once copied into its
  partition (at world size 1 ``reduce_scatter_coalesced`` of one tensor is a view, and the
  gathers are views of the partitions: ``NoGatherHandle``);
- each optimizer step (``step``, lines 1896-1940): ``get_grad_norm_direct`` makes an fp64 copy of
  every gradient partition, one at a time (``g...double().norm(2)``, line 1633; gradient clipping
  is on: the Trainer's ``max_grad_norm`` 1.0 behind "auto"); then per sub-group
  ``_prepare_fp32_grad_for_sub_group`` (line 1731): ``flatten`` (a 16-bit copy, freed at the end
  of the statement) ``.to(fp32)`` (kept until ``_release_sub_group``).

Sub-groups: ``_create_fp16_sub_groups`` closes a sub-group at the first parameter that brings it to
``sub_group_size`` (1e9 in Qwen's ``ds_config_zero3.json``). One parameter group (the HF Trainer
hands DeepSpeed ``DummyOptim(model.parameters())`` when the config names an optimizer). Activations
at 256 tokens (batch 1, checkpointing) are below 0.1 GiB and left out.

Usage::

    python -m calibration.zero3_one_gpu_reserved [--steps 3] [--json OUT]

Pure Python, no torch import. Prints allocated and reserved after each phase and their peaks.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Dict, List, Tuple

from calibration.caching_allocator import CachingAllocator

GIB = 2 ** 30
#: Qwen's ds_config_zero3.json; reduce_bucket_size "auto" resolved as the HF Trainer does (h*h)
SUB_GROUP_SIZE = 10 ** 9


def qwen1_params(hidden: int, inter_half: int, layers: int, vocab: int) -> List[Tuple[str, int]]:
    """Qwen-1's parameters in ``named_parameters`` order (remote code ``modeling_qwen.py``: wte,
    per block ln_1, attn.c_attn (weight, bias), attn.c_proj, ln_2, mlp.w1, mlp.w2, mlp.c_proj,
    then ln_f and the untied lm_head). ``inter_half``: config.json's intermediate_size / 2."""
    out = [("wte", vocab * hidden)]
    for i in range(layers):
        out += [(f"h{i}.ln_1", hidden), (f"h{i}.c_attn.w", hidden * 3 * hidden),
                (f"h{i}.c_attn.b", 3 * hidden), (f"h{i}.attn.c_proj", hidden * hidden),
                (f"h{i}.ln_2", hidden), (f"h{i}.w1", hidden * inter_half),
                (f"h{i}.w2", hidden * inter_half), (f"h{i}.mlp.c_proj", inter_half * hidden)]
    out += [("ln_f", hidden), ("lm_head", vocab * hidden)]
    return out


def sub_groups(params: List[Tuple[str, int]], size: int = SUB_GROUP_SIZE) -> List[int]:
    """Element counts of ``_create_fp16_sub_groups``' sub-groups (world size 1)."""
    groups: List[int] = []
    cur = 0
    for i, (_, n) in enumerate(params):
        cur += n
        if cur >= size or i == len(params) - 1:
            groups.append(cur)
            cur = 0
    return groups


def replay(params: List[Tuple[str, int]], reduce_bucket: int, accum: int, steps: int) -> Dict[str, Any]:
    alloc = CachingAllocator()
    phases: List[Dict[str, Any]] = []

    def mark(name: str) -> None:
        s = alloc.stats
        phases.append({"phase": name, "allocated_gib": s.allocated / GIB, "reserved_gib": s.reserved / GIB,
                       "peak_allocated_gib": s.peak_allocated / GIB, "peak_reserved_gib": s.peak_reserved / GIB})
        alloc.reset_peaks()

    total = sum(n for _, n in params)
    groups = sub_groups(params)
    flat16 = alloc.malloc(total * 2)                         # defragment: after empty_cache()
    mark("defragment")
    fp32 = []
    for n in groups:                                         # _create_fp32_partitions
        clone = alloc.malloc(n * 2)
        fp32.append(alloc.malloc(n * 4))
        alloc.free(clone)
    mark("fp32 partitions")
    grad_buffer = alloc.malloc(max(groups) * 4)              # initialize_optimizer_states
    states = []
    for n in groups:
        states += [alloc.malloc(n * 4), alloc.malloc(n * 4)]
    alloc.free(grad_buffer)
    ipg = alloc.malloc(reduce_bucket * 2)
    grads16 = alloc.malloc(total * 2)
    mark("optimizer states, gradient partitions")
    for step in range(steps):
        for _ in range(accum):
            for _, n in reversed(params):                    # backward: full grad, then partitioned
                if n * 2 >= 2 ** 20:
                    alloc.free(alloc.malloc(n * 2))
        mark(f"step {step}: forward/backward x{accum}")
        for _, n in params:                                  # get_grad_norm_direct: fp64 copies
            if n * 8 >= 2 ** 20:
                alloc.free(alloc.malloc(n * 8))
        for n in groups:                                     # per sub-group
            flat = alloc.malloc(n * 2)
            g32 = alloc.malloc(n * 4)
            alloc.free(flat)
            alloc.free(g32)                                  # _release_sub_group
        mark(f"step {step}: optimizer")
    kept = [flat16, ipg, grads16, *fp32, *states]
    return {"elements": total, "sub_groups": groups, "phases": phases,
            "persistent_gib": sum(b.size for b in kept) / GIB,
            "peak_reserved_gib": max(p["peak_reserved_gib"] for p in phases),
            "peak_allocated_gib": max(p["peak_allocated_gib"] for p in phases)}


CASES = {
    # Qwen-1.8B (config.json: hidden 2048, intermediate 11008, 24 layers, vocab 151936)
    "qwen-1.8b": (qwen1_params(2048, 5504, 24, 151936), 2048 * 2048),
}


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--accum", type=int, default=8)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    out = {}
    for name, (params, bucket) in CASES.items():
        res = replay(params, bucket, args.accum, args.steps)
        out[name] = res
        print(f"{name}: {res['elements'] / 1e9:.3f}e9 elements, sub-groups "
              f"{[round(g / 1e9, 3) for g in res['sub_groups']]} (1e9), persistent {res['persistent_gib']:.2f} GiB")
        for p in res["phases"]:
            print(f"  {p['phase']:42s} allocated {p['allocated_gib']:6.2f}  reserved {p['reserved_gib']:6.2f}  "
                  f"peak allocated {p['peak_allocated_gib']:6.2f}  peak reserved {p['peak_reserved_gib']:6.2f}")
        print(f"  peak allocated {res['peak_allocated_gib']:.2f} GiB, peak reserved {res['peak_reserved_gib']:.2f} GiB")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
