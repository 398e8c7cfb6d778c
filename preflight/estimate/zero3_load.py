"""What a ZeRO-3 rank holds while DeepSpeed partitions a model that reached the GPU whole
(``load_placement="gpu"``: built outside ``deepspeed.zero.Init``).

DeepSpeed's engine casts the module to its 16-bit dtype and moves it whole to the GPU
(v0.9.0 ``engine.py`` ``_configure_distributed_model``, lines 1037-1051: ``self.module.half()``
then ``self.module.to(self.device)``). ZeRO-3 then converts each parameter
(``parameter_offload.py`` ``_convert_to_zero_parameters``, lines 281-298, passes
``remote_device=self.offload_device``), and ``partition_parameters.py`` ``_partition_param``
(lines 1105-1116) allocates the rank's partition on ``self.remote_device``:

* without parameter offload the partition is made on the GPU beside the whole model
  (the load phase charges the rank's shard on top of it);
* with ``offload_param`` on the CPU (or NVMe, staged through the CPU) the partition is made
  in host memory: nothing is added on the GPU, only the whole model is there before each
  parameter's GPU storage is freed (``free_param``).
"""

from __future__ import annotations

from preflight.estimate.inputs import EstimateInput


def load_shard_on_gpu(inp: EstimateInput, whole: float, shards: int) -> float:
    """Bytes of this rank's ZeRO-3 partitions on the GPU while the whole model is there
    (0 when the partitions are made on the offload device)."""
    if inp.offload_params in ("cpu", "nvme"):
        return 0.0
    return whole / shards


def load_note(inp: EstimateInput, whole_gib: str) -> str:
    """The load phase in words, for ``preflight estimate``."""
    where = ("its partitions are made in host memory (parameter offload), so only the whole model is "
             "on the GPU" if inp.offload_params in ("cpu", "nvme")
             else "this rank's partition is copied out beside it")
    return (f"ZeRO-3 on a model built outside deepspeed.zero.Init: DeepSpeed moves the whole model "
            f"({whole_gib}) to every GPU before it partitions the parameters; {where}. The caching "
            "allocator keeps those blocks unless emptied: build the model under zero.Init (or register "
            "the DeepSpeed config before from_pretrained) to avoid it")
