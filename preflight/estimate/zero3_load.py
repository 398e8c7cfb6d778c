"""What a ZeRO-3 rank holds while DeepSpeed partitions a model that reached the GPU whole
(``load_placement="gpu"``: built outside ``deepspeed.zero.Init``).

DeepSpeed's engine casts the module to its 16-bit dtype and moves it whole to the GPU
(v0.9.0 ``engine.py`` ``_configure_distributed_model``, lines 1037-1051: ``self.module.half()``
then ``self.module.to(self.device)``). ZeRO-3 then converts each parameter
(``parameter_offload.py`` ``_convert_to_zero_parameters``, lines 281-298, passes
``remote_device=self.offload_device``), and ``partition_parameters.py`` ``_partition_param``
(lines 1105-1116) allocates the rank's partition on ``self.remote_device``
and frees the parameter's whole GPU storage right after copying its slice (``free_param``, line
1155), one parameter at a time (``_convert_to_zero_parameters`` line 746: ``param.partition()``
per parameter; the same order in DeepSpeed's current ``_zero_init_param``). So:

* without parameter offload the first partition is made on the GPU while the whole model is
  still there; each later one fits in blocks already freed. The load phase charges the largest
  tensor's partition on top of the whole model (not every partition: ``2 x P / N`` was charged
  before est40);
* with ``offload_param`` on the CPU (or NVMe, staged through the CPU) the partitions are made
  in host memory: nothing is added on the GPU, only the whole model is there.
"""

from __future__ import annotations

from preflight.estimate.inputs import EstimateInput


def load_shard_on_gpu(inp: EstimateInput, largest: float, shards: int) -> float:
    """Bytes of ZeRO-3 partitions on the GPU beside the whole model: the partition of the
    largest tensor (``largest`` bytes, 16-bit), or 0 when partitions go to the offload device."""
    if inp.offload_params in ("cpu", "nvme"):
        return 0.0
    return largest / max(shards, 1)


def load_note(inp: EstimateInput, whole_gib: str) -> str:
    """The load phase in words, for ``preflight estimate``."""
    where = ("its partitions are made in host memory (parameter offload), so only the whole model is "
             "on the GPU" if inp.offload_params in ("cpu", "nvme")
             else "each parameter's partition is copied out and its whole copy freed, one at a time")
    return (f"ZeRO-3 on a model built outside deepspeed.zero.Init: DeepSpeed moves the whole model "
            f"({whole_gib}) to every GPU before it partitions the parameters; {where}. The caching "
            "allocator keeps those blocks unless emptied: build the model under zero.Init (or register "
            "the DeepSpeed config before from_pretrained) to avoid it")
