"""A paged optimizer's states on the GPU as the driver (nvidia-smi) sees them.

bitsandbytes' paged optimizers keep each state tensor of a parameter with at least 1e5
elements in CUDA managed memory (``Optimizer8bit.get_state_buffer``: ``F.get_paged(...)``,
``cget_managed_ptr`` -> ``cudaMallocManaged(&ptr, bytes, cudaMemAttachHost)``) and, in every
``step()``, call ``prefetch_state(p)`` before updating a parameter (``F.prefetch_tensor`` ->
``cudaMemPrefetchAsync`` to the parameter's device). Between steps nothing moves them back:
managed pages leave the GPU only when the driver evicts them under memory pressure.

So the estimator's verdict leaves them out (``Estimate.paged_bytes``: evicted rather than an
out-of-memory error), PyTorch's counters never see them (outside its caching allocator), and
a driver-level reading of a job whose GPU has room holds them all: the device memory the
process uses includes the resident managed pages. On a GPU without room for all of them, only
what fits beside the rest of the step stays resident.
"""

from __future__ import annotations

from typing import Optional


def resident_paged_bytes(peak: float, paged: float, capacity: Optional[float]) -> float:
    """Bytes of managed-memory optimizer states resident on the GPU beside a step whose own
    peak (driver view: context and NCCL buffers included) is ``peak``: all ``paged`` bytes when
    the GPU's ``capacity`` (None: unknown, taken as room) holds them, else what is left."""
    if paged <= 0:
        return 0.0
    if capacity is None:
        return float(paged)
    return float(max(0.0, min(paged, capacity - peak)))
