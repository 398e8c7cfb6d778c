"""Reserved memory at a ZeRO optimizer step: the step's partition-sized tensors cannot use the
blocks backward freed (est70).

``DeepSpeedZeroOptimizer.step`` (terms_sharded.zero12_step_grads; DeepSpeed v0.19.2
``stage_1_and_2.py``) makes, per parameter group, a flat 16-bit copy of the rank's gradient
partition and its fp32 cast: two single tensors of ``P / n`` elements (Llama-3.1-8B on 8 GPUs:
1.87 and 3.74 GiB), and a client optimizer (``zero_client_optim``) its partition-sized temporaries. PyTorch's caching allocator serves a request from a free cached block at least
as large (best fit), and a block never spans two segments; a request over 10 MiB that finds none
gets a new segment of its own rounded size (``CUDACachingAllocator.cpp``: ``get_free_block``,
``get_allocation_size``; ``calibration/caching_allocator.py`` replays that policy). Free segments
go back to the device only when ``cudaMalloc`` fails (``release_cached_blocks``). So when no tensor
of the forward / backward was as large as the step's, none of the blocks backward freed can hold
them: the step adds new segments while every segment backward used stays reserved, and
``max_memory_reserved`` (and nvidia-smi) read the backward's reserved memory plus those segments.
When backward made a block as large (the standard loss's fp32 logits, ``b x T x V x 4`` bytes), the
step reuses it and nothing is added.

The largest block backward had, taken as the largest of: one activation tensor (``b x T x
max(hidden, intermediate)`` in the compute dtype), the fp32 logits when the loss keeps them, and
the LM head's 16-bit gradient (freed once reduced). The extra is reserved only (the term
``step_segments``): wholly free segments, released before an out-of-memory error, so the verdict
does not count it (like ``stream_cache``). Full fine-tunes only (an adapter's partition is small);
not under optimizer offload (the step runs on the host).

est84: before it flattens, the step takes each gradient slice of the partition to fp64 for the
norm (``terms_sharded.zero12_step_norm_copy``): the largest, the embedding's on rank 0 of a causal
LM, is a single tensor of 8 bytes per element, freed before the flat copy and its cast are made.
When it is larger than every block backward freed it takes a new segment of its own; the flat
copy and then the fp32 cast are served from that segment's free block while they fit (best fit:
backward's blocks are smaller), and take segments of their own when they do not
(``calibration/est84_norm_copy.py`` replays the sequence through ``calibration/caching_allocator.py``).
ZeRO-3's step makes the same single tensors in the same order (the norm over each parameter's own
partition, then per sub-group ``self.flatten(self.averaged_gradients[sub_group_id]).to(fp32)``:
``terms_sharded.zero3_step_grads``), so the same rule covers it.
"""

from __future__ import annotations

from typing import Any

from preflight.estimate.inputs import EstimateInput
from preflight.estimate.terms import zero3_step_grads, zero12_step_grads, zero12_step_norm_copy

#: terms outside the allocator or reserved-only (not tensors a phase allocates)
_NOT_ALLOCATED = ("cuda_context", "nccl_buffers", "stream_cache", "length_cache", "pending_frees",
                  "step_segments", "fragmentation")


def largest_backward_block(inp: EstimateInput, arch: Any, prm: Any, logits_loss: float, ec: float) -> float:
    """Bytes of the largest single tensor the forward / backward allocated (see the module)."""
    tokens = float(inp.micro_batch) * float(inp.seq_len or 0)
    act = tokens * max(float(arch.intermediate_size or 0), float(arch.hidden_size)) * ec
    fp32_logits = tokens * float(arch.vocab_size or 0) * 4.0
    logits = fp32_logits if logits_loss >= fp32_logits else 0.0
    return max(act, logits, float(prm.lm_head) * ec)


def new_segments(largest: float, first: float, later: tuple[float, ...]) -> float:
    """Bytes of the new segments a step takes: ``first`` (the norm's fp64 copy), freed before
    ``later`` (alive together) are made; a request no larger than ``largest`` (backward's largest
    freed block) reuses backward's blocks, a larger one the free part of ``first``'s segment
    while it fits, else a segment of its own (see the module)."""
    big = [x for x in later if x > largest]
    if first <= largest:
        return sum(big)
    free, new = first, first
    for x in big:
        if x <= free:
            free -= x
        else:
            new += x
    return new


def step_segments(inp: EstimateInput, arch: Any, prm: Any, terms: dict[str, dict[str, float]],
                  ec: float = 2.0) -> float:
    """Reserved bytes the optimizer phase holds beyond its own tensors (0 when its large tensors
    fit a block backward freed)."""
    if (inp.mode != "train" or inp.zero_stage < 1 or inp.fsdp is not None or inp.offload_optimizer
            or inp.lora_r or inp.quant or "optimizer" not in terms or "backward" not in terms):
        return 0.0
    n = max(inp.world_size, 1)
    if inp.zero_stage >= 3:
        fp32_grad, flat = zero3_step_grads(inp, float(prm.total), n, ec, float(prm.largest))
    else:
        fp32_grad, flat = zero12_step_grads(inp, float(prm.total), n, ec)
    largest = largest_backward_block(inp, arch, prm, terms["backward"].get("logits_loss", 0.0), ec)
    # a client optimizer's partition-sized temporaries (zero_client_optim) are single tensors too
    temps = terms["optimizer"].get("optimizer_temporaries", 0.0)
    norm = zero12_step_norm_copy(inp, float(prm.largest), float(prm.total), n)
    new = new_segments(largest, norm, (flat, fp32_grad, temps))
    if not new:
        return 0.0
    backward = sum(v for t, v in terms["backward"].items() if t not in _NOT_ALLOCATED)
    step = sum(v for t, v in terms["optimizer"].items() if t not in _NOT_ALLOCATED)
    return max(backward + new - step, 0.0)
