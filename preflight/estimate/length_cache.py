"""Cached blocks of other sequence lengths: what ``torch.cuda.memory_reserved`` holds above the
allocated peak when a job's batches change length from step to step (dynamic padding).

PyTorch's caching allocator never returns memory to the device unless ``cudaMalloc`` fails
(``c10/cuda/CUDACachingAllocator.cpp``): a tensor of a new, larger size cannot use a cached
block of a smaller one and takes a new segment, while best-fit splitting of the larger cached
blocks by shorter steps leaves them unable to serve the longest step again. Over a run whose
batch lengths vary, reserved memory therefore rises well above the allocated peak of any
one step, by an amount proportional to the step's transient length-dependent tensors
(logits and loss, recomputation, backward transients). The saved activations are left out:
they are allocated in the same order every step, and the simulator's runs without
checkpointing (whose saved activations are many times larger) show about the same excess
per byte of the transient tensors as the runs with it (median 3.3 against 2.7).

The ratio is measured, not fitted: ``calibration/variable_length.py`` replays training steps
recorded on fake tensors (held-out-6's ms-swift jobs, Qwen-7B and Yi-6B shapes, 512 to 8,192
tokens, with and without checkpointing) through a simulator of that allocator (``calibration/caching_allocator.py``) and
compares a run at a fixed length with runs whose lengths vary
(``calibration/data/variable_length.json``; docs/calibration.md, "est10").

The cached blocks are released before an out-of-memory error (``release_cached_blocks``), so
they never make a job fail: ``Estimate.reclaimable`` carries them and the verdict leaves them
out.
"""

from __future__ import annotations

from typing import Any

from preflight.estimate import constants as C

#: Transient terms whose size follows the batch's sequence length.
LENGTH_TERMS = ("activation_recompute", "backward_transient", "logits_loss",
                "held_outputs")


def step_bytes(terms: dict[str, float]) -> float:
    """The length-dependent tensors of one phase."""
    return sum(v for t, v in terms.items() if t in LENGTH_TERMS)


def applies(inp: Any) -> bool:
    """Training on batches whose length varies (``data.padding`` = dynamic)."""
    return inp.mode == "train" and inp.padding == "dynamic"


def cache_bytes(step: float) -> tuple[float, float, float]:
    """(low, point, high) bytes of cached blocks of other lengths for a step of ``step``
    length-dependent bytes."""
    lo, hi = C.LENGTH_CACHE_RANGE
    return step * lo, step * C.LENGTH_CACHE_RATIO, step * hi


def within_capacity(value: float, cached: float, capacity: float) -> float:
    """Reserved memory ``value`` holding ``cached`` bytes of other lengths, on a device whose
    allocator can obtain ``capacity`` bytes: when ``cudaMalloc`` fails the allocator releases
    cached segments (``release_cached_blocks``) and retries, so reserved memory stops at the
    capacity, and never below what the step itself needs."""
    if cached <= 0:
        return value
    return max(value - cached, min(value, capacity))
