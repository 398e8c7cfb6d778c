"""An accelerate config that names ``distributed_type: DEEPSPEED`` with no ``deepspeed_config`` block.

``accelerate launch --config_file X`` copies the block's keys onto its ``--zero_stage``,
``--offload_optimizer_device``, ... flags; with no block none is set, so ``prepare_deepspeed_cmd_env``
exports no ``ACCELERATE_DEEPSPEED_ZERO_STAGE`` and the ``DeepSpeedPlugin`` the script's Accelerator (or
the HF Trainer, which builds one when ``ACCELERATE_USE_DEEPSPEED`` is set) makes takes its own
defaults: ``zero_stage`` 2 and ``offload_optimizer_device`` "none" (accelerate ``utils/dataclasses.py``
``DeepSpeedPlugin.__post_init__``; ``commands/config/config_args.py`` makes a missing block ``{}``).
taishan1994/DPO-Finetuning @ 6f19d2e9 ``accelerate_config/default_config.yaml``: the block is commented
out above ``distributed_type: DEEPSPEED``; the same bare DEEPSPEED config is in other public accelerate
configs (cited in docs/corpus.md). A flag on the launch line that names a DeepSpeed setting, or a
``deepspeed_config_file``, wins, so nothing is said then. Medium: a default, not a written value.
"""

from __future__ import annotations

from typing import Any

from preflight.adapters.launch_line import accelerate_launch_flags

_DS_FLAGS = ("__zero_stage", "__offload_optimizer_device", "__offload_param_device", "__deepspeed_config_file")


def deepspeed_without_block(reader: Any) -> None:
    """zero2 and no optimizer offload for ``reader``'s DEEPSPEED config without a block."""
    from preflight.plan import Source

    given = accelerate_launch_flags(reader.project.argv)
    if any(flag in given for flag in _DS_FLAGS):
        return
    line = reader.config.line_of(("distributed_type",), nearest=True)
    why = "distributed_type: DEEPSPEED with no deepspeed_config block"
    reader.add("dist.sharding", "zero2",
               Source("default", reader.config.path, line, "distributed_type",
                      f"{why}: DeepSpeedPlugin zero_stage default 2 (env ACCELERATE_DEEPSPEED_ZERO_STAGE unset)"),
               "medium")
    reader.add("dist.offload_optimizer", "none",
               Source("default", reader.config.path, line, "distributed_type",
                      f"{why}: DeepSpeedPlugin offload_optimizer_device default none"), "medium")
