"""Blocks freed with an event pending: reserved, not allocated, released before an OOM error.

FSDP1 without its rate limiter (``limit_all_gathers=False``, torch < 2.1:
``terms_sharded.fsdp_all_gathers_unlimited``) lets the CPU thread run ahead of the GPU. Each
unit's unsharded FlatParameter is freed by the CPU in its post-forward reshard
(``_free_unsharded_flat_param``: ``unsharded_flat_param.record_stream(current_stream())`` then
``_free_storage``), and each unsharded gradient after its reduce-scatter is issued
(``_post_backward_hook``: ``_no_dispatch_record_stream(autograd_computed_grad,
post_backward_stream)``). A block with stream uses is not reusable until the GPU reaches them,
so a CPU far ahead makes new blocks for the next units: up to every unit at once.

PyTorch's caching allocator (c10/cuda/CUDACachingAllocator.cpp, ``DeviceCachingAllocator``):

* ``free()`` decreases ``allocated_bytes`` at once and, when ``block->stream_uses`` is not
  empty, only ``insert_events(block)``: the block stays reserved until its events complete.
  So ``torch.cuda.max_memory_allocated`` counts the running units only; ``memory_reserved``
  and nvidia-smi count the pending ones too.
* ``malloc()`` on a failed ``cudaMalloc`` calls ``release_cached_blocks()``, which "First
  ensure[s] that all blocks that can't currently be allocated due to outstanding events are
  returned to the pool" (``synchronize_and_free_events()``) and frees the cached segments, then
  retries: the pending blocks never cause an out-of-memory error.

So the cost model charges the limited case (the running and the prefetched unit) as allocated
memory and the rest, up to every unit, as ``pending_frees``: in the allocator's
``active_bytes`` (``free_block`` decreases them only once the events completed), reserved memory
and nvidia-smi's figure (capped by the GPU's memory), out of ``max_memory_allocated`` and the
verdict.
"""

from __future__ import annotations


def unlimited_gather_excess(limited: float, every_unit: float) -> float:
    """Bytes of blocks freed with pending events beyond the ``limited`` case's, when a CPU
    ahead of the GPU holds ``every_unit`` (every unit's gathered parameters, or every unit's
    unsharded gradient) at once; 0 when the limited case already holds as much."""
    return max(every_unit - limited, 0.0)
