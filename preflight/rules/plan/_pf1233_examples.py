"""PF1233 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = textwrap.dedent("""
    # --- train_fsdp.py
    import torch
    from accelerate import Accelerator, FullyShardedDataParallelPlugin
    from torch.distributed.fsdp import MixedPrecision, ShardingStrategy
    from transformers import AutoModelForCausalLM

    fsdp_plugin = FullyShardedDataParallelPlugin(
        sharding_strategy=ShardingStrategy.FULL_SHARD,
        mixed_precision_policy=MixedPrecision(param_dtype={param}, reduce_dtype=torch.bfloat16),
    )
    accelerator = Accelerator({args}){mark}
    model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1", torch_dtype={load})
    model = accelerator.prepare(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    optimizer, loader = accelerator.prepare(optimizer, loader)
    model.train()
    for batch in loader:
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    # --- launch
    accelerate launch --num_processes 8 {launch}train_fsdp.py
""")

PF1233_BAD = [
    # instructlab/training pull request 465: the policy on the plugin only, the model loaded in bf16
    _SCRIPT.format(param="torch.bfloat16", args="fsdp_plugin=fsdp_plugin", mark="  # warning: PF1233",
                   load="torch.bfloat16", launch=""),
    # the same with a float16 load and another Accelerator argument
    _SCRIPT.format(param="torch.float16", args="fsdp_plugin=fsdp_plugin, step_scheduler_with_optimizer=False",
                   mark="  # warning: PF1233", load="torch.float16", launch=""),
]

PF1233_GOOD = [
    # the PR's fix: the Accelerator owns the precision
    _SCRIPT.format(param="torch.bfloat16", args='fsdp_plugin=fsdp_plugin, mixed_precision="bf16"', mark="",
                   load="torch.bfloat16", launch=""),
    # tricky: the launch command sets mixed precision
    _SCRIPT.format(param="torch.bfloat16", args="fsdp_plugin=fsdp_plugin", mark="", load="torch.bfloat16",
                   launch="--mixed_precision bf16 "),
    # the model is loaded in float32: FSDP's policy casts for compute, the shards stay fp32
    _SCRIPT.format(param="torch.bfloat16", args="fsdp_plugin=fsdp_plugin", mark="", load="torch.float32",
                   launch=""),
    # the policy keeps fp32 parameters
    _SCRIPT.format(param="torch.float32", args="fsdp_plugin=fsdp_plugin", mark="", load="torch.bfloat16",
                   launch=""),
]
