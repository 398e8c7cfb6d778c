"""The fp64 copy DeepSpeed's ZeRO-1/2 step makes of each gradient slice for the norm, and the segments
it takes (est84).

``DeepSpeedZeroOptimizer.step`` computes the gradient norm before it flattens the rank's partition:
``get_grad_norm_direct`` takes every gradient slice of the partition to fp64 (``g.data.double()
.norm(2)``, deepspeed v0.9.2 e0e8085 ``runtime/zero/stage_1_and_2.py`` line 1509; ``torch.norm(
g.data.double().detach(), norm_type)``, v0.13.3 afdf028 line 1685; ``torch.linalg.vector_norm(
g.data.double().detach(), ...)``, edaa722 line 2089); the fp16 overflow check before it runs
``float(x.float().sum())`` (``_has_inf_or_nan``). Part 1 measures, on the CPU (the quantity is the
dtype's, device-independent), the bytes each statement allocates for a 16-bit gradient of ``N``
elements, with ``torch.profiler`` (``profile_memory``): the largest single allocation.

Part 2 replays, through ``calibration/caching_allocator.py`` (the CUDA caching allocator's policy),
the step of held-out-40's BELLE rows (BLOOM-560M / 1B1 full fine-tune, DeepSpeed fp16 ZeRO-1/2 on two
GPUs, LianjiaTech/BELLE#402) for rank 0, which holds the embedding (the first parameter of the flat
group), and rank 1, whose largest slice is a block matrix: backward's largest freed block, then the
norm's fp64 copy (freed), the flat 16-bit copy of the partition and its fp32 cast (alive together);
and for ZeRO-3 (the same order in ``DeepSpeedZeroOptimizer_Stage3.step``), whose ranks each hold half
of every parameter.
It prints the new segments the replay takes and ``step_segments.new_segments``'s figure for the same
sizes.

    python calibration/est84_norm_copy.py    # torch 2.13.0 (CPU wheel); writes data/est84_norm_copy.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from caching_allocator import CachingAllocator  # noqa: E402

OUT = HERE / "data" / "est84_norm_copy.json"
N = 1 << 20


def largest_allocation(fn) -> int:
    """Bytes of the largest single CPU allocation ``fn`` makes (torch.profiler, profile_memory)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        fn()
    return max((e.cpu_memory_usage for e in prof.events() if e.cpu_memory_usage > 0), default=0)


def measure() -> dict:
    import torch

    g = torch.randn(N).half()
    statements = {
        "v0.9.2: g.data.double().norm(2)": lambda: g.data.double().norm(2),
        "v0.13.3: torch.norm(g.data.double().detach(), 2)": lambda: torch.norm(g.data.double().detach(), 2),
        "edaa722: torch.linalg.vector_norm(g.data.double().detach(), 2)":
            lambda: torch.linalg.vector_norm(g.data.double().detach(), 2),
        "_has_inf_or_nan: float(x.float().sum())": lambda: float(g.float().sum()),
    }
    return {"torch": torch.__version__, "elements": N,
            "bytes_per_element": {k: largest_allocation(f) / N for k, f in statements.items()}}


def replay(backward_block: int, norm: int, flat: int, fp32: int) -> int:
    """New reserved bytes of the step after backward freed a block of ``backward_block`` bytes."""
    alloc = CachingAllocator()
    alloc.free(alloc.malloc(backward_block))
    before = alloc.stats.reserved
    alloc.free(alloc.malloc(norm))
    a = alloc.malloc(flat)
    b = alloc.malloc(fp32)
    alloc.free(a)
    alloc.free(b)
    return alloc.stats.peak_reserved - before


#: (row, parameters, embedding = vocab x hidden, largest block matrix = 4 h x h, tokens)
ROWS = (("BLOOM-560M, 512 tokens", 559_214_592, 250_880 * 1024, 4 * 1024 * 1024, 512),
        ("BLOOM-560M, 1024 tokens", 559_214_592, 250_880 * 1024, 4 * 1024 * 1024, 1024),
        ("BLOOM-1B1, 512 tokens", 1_065_314_304, 250_880 * 1536, 4 * 1536 * 1536, 512))


def segments() -> list:
    from preflight.estimate.step_segments import new_segments

    out = []
    for name, total, embedding, matrix, tokens in ROWS:
        part = total // 2
        backward = max(tokens * 250_880 * 4, embedding * 2)   # fp32 logits, the tied head's fp16 grad
        flat, fp32 = part * 2, part * 4
        # ZeRO-1/2: rank 0's partition holds the embedding, rank 1's largest is a block matrix;
        # ZeRO-3: every parameter partitioned on its own, each rank holds half the embedding
        for rank, norm in (("ZeRO-1/2 rank 0", 8 * min(embedding, part)),
                           ("ZeRO-1/2 rank 1", 8 * min(matrix, part)),
                           ("ZeRO-3 either rank", 8 * embedding // 2)):
            out.append({"row": name, "rank": rank, "norm_copy_bytes": norm,
                        "replayed_new_bytes": replay(backward, norm, flat, fp32),
                        "new_segments_bytes": int(new_segments(float(backward), float(norm),
                                                               (float(flat), float(fp32))))})
    return out


def main() -> int:
    result = {"part1": measure(), "part2": segments()}
    OUT.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
