"""PF517 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire, good ones stay silent."""

from __future__ import annotations

PF517_BAD = [
    # diffusers issue 2606: the checkpoint saved on the main process, launched with --use_deepspeed
    """
# --- train.py
from accelerate import Accelerator

accelerator = Accelerator(mixed_precision="bf16")
unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
for step, batch in enumerate(loader):
    accelerator.backward(unet(batch).loss)
    optimizer.step()
    optimizer.zero_grad()
    if step % 500 == 0:
        if accelerator.is_main_process:
            accelerator.save_state(f"checkpoint-{step}")  # error: PF517
# --- launch
accelerate launch --use_deepspeed --zero_stage 2 --num_processes 2 train.py
""",
    # the ZeRO stage comes from the DeepSpeed config file
    """
# --- train.py
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer = accelerator.prepare(model, optimizer)
if accelerator.is_local_main_process:
    accelerator.save_state("final")  # error: PF517
# --- ds_config.json
{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 3}}
# --- launch
accelerate launch --use_deepspeed --deepspeed_config_file ds_config.json --num_processes 2 train.py
""",
]

PF517_GOOD = [
    # every process saves
    """
# --- train.py
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer = accelerator.prepare(model, optimizer)
accelerator.save_state("final")
if accelerator.is_main_process:
    tokenizer.save_pretrained("final")
# --- launch
accelerate launch --use_deepspeed --zero_stage 2 --num_processes 2 train.py
""",
    # plain DDP: saving on the main process works
    """
# --- train.py
from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer = accelerator.prepare(model, optimizer)
if accelerator.is_main_process:
    accelerator.save_state("final")
# --- launch
accelerate launch --multi_gpu --num_processes 2 train.py
""",
    # the diffusers guard lets DeepSpeed ranks through
    """
# --- train.py
from accelerate import Accelerator
from accelerate.utils import DistributedType

accelerator = Accelerator()
model, optimizer = accelerator.prepare(model, optimizer)
if accelerator.is_main_process or accelerator.distributed_type == DistributedType.DEEPSPEED:
    accelerator.save_state("final")
# --- launch
accelerate launch --use_deepspeed --zero_stage 3 --num_processes 2 train.py
""",
]
