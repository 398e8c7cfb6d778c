"""ZeRO-3's gathered parameters belong to the all-gather stream's pool of cached blocks (est44).

PyTorch's caching allocator files every block under the stream that was current when it was
allocated, and hands a cached block only to a request on that same stream
(``c10/cuda/CUDACachingAllocator.cpp``: the free-block search's key holds the stream, and a block
freed by ``free`` goes back to its own stream's set). DeepSpeed's stage 3 gathers parameters on a
stream of its own when ``overlap_comm`` is on (stage 3's default: ``DeepSpeedZeroConfig.
overlap_comm_valid``, v0.12.0 ``runtime/zero/config.py`` lines 298-302):
``DeepSpeedZeRoOffload`` makes ``self.__allgather_stream = get_accelerator().Stream() if
overlap_comm else get_accelerator().default_stream()`` (v0.12.0 ``runtime/zero/parameter_offload.py``
lines 256-257; the same lines in v0.7.7 and v0.19.8), and ``PartitionedParameterCoordinator.
__all_gather_params_`` calls ``all_gather_coalesced`` inside ``with get_accelerator().stream(
self.__allgather_stream)`` (v0.12.0 ``partitioned_param_coordinator.py`` line 443), which
allocates the gathered buffers there. ``free_param`` (``param.data = torch.empty(0)``) returns them
to that stream's pool; nothing in the step empties the cache.

So through the optimizer step, which runs on the default stream, the blocks of the gathered set
(the forward and backward term ``gathered_params``) stay reserved beside the step's own tensors
and transients, and the step's blocks cannot serve the next forward's gathers either: reserved
memory (and nvidia-smi) carries both, while allocated memory does not. The estimate charges the
gathered set to the optimizer phase as ``stream_cache``: reserved only, left out of the
interval's bottom and of allocated-memory readings, and released by the allocator before an
out-of-memory error (``Estimate.reclaimable``), as the other ``stream_cache`` pools.

Only where gathers allocate: more than one rank, or parameter offload (on one GPU without it
the gathered parameter is a view of the rank's own partition: ``NoGatherHandle``).
"""

from __future__ import annotations

from typing import Any


def overlap_comm_on(inp: Any) -> bool:
    """DeepSpeed's ``overlap_comm`` as the job runs it (unset: on for stage 3)."""
    return bool(inp.overlap_comm) if inp.overlap_comm is not None else inp.zero_stage >= 3


def allgather_pool(inp: Any, gathered_bytes: float) -> float:
    """Bytes the all-gather stream keeps cached through the optimizer step: the gathered set of
    forward and backward, for a ZeRO-3 training job whose gathers allocate (the caller's
    condition) and run on their own stream; 0 otherwise."""
    if inp.mode != "train" or inp.zero_stage < 3 or not overlap_comm_on(inp):
        return 0.0
    return max(float(gathered_bytes), 0.0)


def allgather_pool_note(pool: float) -> str:
    return (f"ZeRO-3 with overlap_comm: the gathered parameters' blocks ({pool / 2 ** 30:.2f} GiB) "
            "belong to DeepSpeed's all-gather stream, whose cached blocks the optimizer step on the "
            "default stream cannot use: reserved memory (nvidia-smi) holds both at the step "
            "(released before an out-of-memory error)")
