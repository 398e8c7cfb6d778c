"""PF699 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# huggingface/accelerate issue 1324's shape: a plain accelerate script under a ZeRO-2 accelerate config
_JOB = dedent("""
    # --- requirements.txt
    torch==2.0.0
    accelerate=={accelerate}
    deepspeed=={deepspeed}{pin}
    # --- train.py
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader

    accelerator = Accelerator()
    model = torch.nn.Linear(16, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    loader = DataLoader(list(range(64)), batch_size=16)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    # --- ds_zero2.yaml
    compute_environment: LOCAL_MACHINE
    deepspeed_config:
      gradient_accumulation_steps: 1
      zero_stage: 2
    distributed_type: {dist}
    num_machines: 1
    num_processes: 2
    machine_rank: 0
    # --- launch
    accelerate launch --config_file ds_zero2.yaml train.py
    """)


def _job(accelerate="0.18.0", deepspeed="0.9.0", dist="DEEPSPEED", pin="  # error: PF699"):
    return _JOB.format(accelerate=accelerate, deepspeed=deepspeed, dist=dist, pin=pin)


PF699_BAD = [
    _job(),
    # OpenGVLab/InternImage issue 111: the same pins, a later DeepSpeed patch release
    _job(accelerate="0.17.1", deepspeed="0.9.2"),
]

PF699_GOOD = [
    # the fix of the report: DeepSpeed 0.8.3 with the old accelerate
    _job(deepspeed="0.8.3", pin=""),
    # the other fix: accelerate 0.19.0 initialises deepspeed.comm
    _job(accelerate="0.19.0", pin=""),
    # tricky: the same pins, but accelerate runs plain multi-GPU DDP (DeepSpeed is installed, not used)
    _job(dist="MULTI_GPU", pin=""),
    # tricky: DeepSpeed only bounded from below: the installed release is not known
    _JOB.format(accelerate="0.18.0", deepspeed="0.9.0", dist="DEEPSPEED", pin="").replace("deepspeed==", "deepspeed>="),
]
