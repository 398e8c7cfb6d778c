"""The fp32 copy DeepSpeed's ZeRO optimizers make of every trainable parameter they own.

Both ZeRO optimizers build their flat fp32 partitions by copying the model's own partition:
``DeepSpeedZeroOptimizer`` (stages 1-2) runs ``self.parallel_partitioned_bit16_groups[i]
[partition_id].to(self.device).clone().float().detach()`` (deepspeed
``runtime/zero/stage_1_and_2.py`` v0.13.3 lines 394-395), and
``DeepSpeedZeroOptimizer_Stage3._create_fp32_partitions`` runs
``self.fp16_partitioned_groups_flat[i].to(self.device).clone().float().detach()`` (``stage3.py``
v0.13.3 lines 863-864). ``clone()`` makes a new tensor whatever the dtype, and ``.float()`` of
an fp32 tensor returns it as it is: so the copy exists for fp32 parameters as well, 4 bytes
per trainable parameter beside the parameter itself (the optimizer steps the copy and copies
it back). The DeepSpeed engine chooses its ZeRO optimizer whenever ``zero_optimization``'s
stage is above 0, with or without a 16-bit mode (``_do_optimizer_sanity_check`` returns
``ZERO_OPTIMIZATION``).

An fp32 model under ZeRO-3 is also what a DeepSpeed config without an fp16/bf16 section
builds from 16-bit checkpoints: ``zero.Init`` converts every floating tensor made inside it
to the config's dtype, fp32 when neither mode is on (``partition_parameters.py`` v0.14.3
``_set_dtype`` lines 356-366, ``zero_wrapper_for_fp_tensor_constructor`` lines 235-244).
The plan says that with ``precision`` fp32; this module does not guess it from a 16-bit load.
"""

from __future__ import annotations

from preflight.estimate.inputs import EstimateInput


def zero_fp32_master(inp: EstimateInput, trainable: float) -> bool:
    """Whether the ZeRO optimizer holds an fp32 copy of the ``trainable`` parameters: a ZeRO
    stage (DeepSpeed, not FSDP) and something to train. Offloaded optimizers keep the copy in
    host memory (the caller drops it from the GPU)."""
    return inp.zero_stage > 0 and inp.fsdp is None and trainable > 0
