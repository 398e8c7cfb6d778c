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

from preflight.estimate import constants as C


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


#: elements per float64 chunk of ``DeepSpeedZeroOptimizer_Stage3._constant_buffered_norm2``
#: (``buffer_size=250000000``, DeepSpeed v0.19.2 ``runtime/zero/stage3.py``)
NORM_CHUNK = 250_000_000


def reduce_pool(inp: Any, trainable: float, largest: float, comm_bytes: float) -> float:
    """Bytes the reduce-and-partition stream keeps cached from the first gradient reduction on
    (est72), for a ZeRO-3 training job with ``overlap_comm`` on; 0 otherwise.

    DeepSpeed v0.19.2 ``runtime/zero/stage3.py``: ``self.reduce_and_partition_stream =
    Stream() if overlap_comm else default_stream()`` (lines 322-323), and
    ``__reduce_and_partition_ipg_grads`` runs inside ``with stream(self.reduce_and_partition_
    stream)`` (line 1426). With ``reduce_scatter`` on (its default) it calls
    ``__avg_scatter_grads`` (line 1435), which hands the bucket's gradients to
    ``reduce_scatter_coalesced`` (``runtime/comm/coalesced_collectives.py`` line 158): unless
    the bucket is one tensor divisible by the world size (line 179), it interleaves every rank's
    slice of every gradient into one new flat tensor, ``torch.cat(...)`` (line 199), the
    bucket's whole size in the communication dtype (the model's 16-bit dtype, or fp32:
    ``engine.communication_data_type``). The same code since v0.9.0. A bucket holds at most
    ``reduce_bucket_size`` elements (``reduce_independent_p_g_buckets_and_remove_grads``: it is
    reduced before a gradient that would overflow it), and a gradient larger than the bucket is
    reduced on its own.

    Under optimizer offload ``partition_grads`` (line 1707) then makes, one parameter at a time
    on the same stream, a GPU copy of the host gradient partition (``grad_buffer.to(device)``,
    line 1726) and its float64 norm chunk (``_constant_buffered_norm2``, line 1744: ``.double()``
    of at most 250M elements): ``comm_bytes + 8`` bytes per element of the largest partition.

    Those blocks belong to the reduce stream, whose cache no allocation of the compute stream
    can use (``zero3_streams`` above), and nothing empties it: reserved memory carries the pool
    in every phase of every later step. Reserved only (``stream_cache``): released before an
    out-of-memory error. Left out: the float64 chunks of a block's parameters beside a full
    bucket when the largest gradient is reduced alone (under 0.1 GiB on Llama-3.1-8B)."""
    if inp.mode != "train" or inp.zero_stage < 3 or trainable <= 0 or not overlap_comm_on(inp):
        return 0.0
    n = max(int(inp.world_size or 1), 1)
    bucket = float(inp.reduce_bucket_size or C.DS_REDUCE_BUCKET)
    largest = min(float(largest), float(trainable))

    def temps(elements: float) -> float:
        if not inp.offload_optimizer:
            return 0.0
        part = elements / n
        return part * comm_bytes + min(part, NORM_CHUNK) * 8.0

    if largest > bucket:
        alone = (0.0 if int(largest) % n == 0 else largest * comm_bytes) + temps(largest)
        return max(alone, min(bucket, float(trainable) - largest) * comm_bytes)
    return min(bucket, float(trainable)) * comm_bytes + temps(largest)


def reduce_pool_note(pool: float) -> str:
    return (f"ZeRO-3 with overlap_comm: each gradient bucket is reduced through a flat copy made on "
            f"DeepSpeed's reduce stream, whose cached blocks ({pool / 2 ** 30:.2f} GiB) the compute "
            "stream cannot use: reserved memory (nvidia-smi) holds them from the first reduction on "
            "(released before an out-of-memory error)")
