"""PF689 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# a LoRA fine-tune under an accelerate config written on a four-GPU machine (ChatGLM-finetune-LoRA
# issue 16's shape)
_JOB = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(mixed_precision="bf16")
    model = torch.nn.Linear(16, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- config/default_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    machine_rank: 0
    mixed_precision: bf16
    {extra}num_processes: {procs}{pin}
    num_machines: {machines}
    use_cpu: false
    # --- launch
    {launch}
    """)

_LAUNCH = "CUDA_VISIBLE_DEVICES=0,1 accelerate launch --config_file config/default_config.yaml train.py"

PF689_BAD = [
    _JOB.format(extra="", procs=4, pin="  # error: PF689", machines=1, launch=_LAUNCH),
    _JOB.format(extra="", procs=2, pin="  # error: PF689", machines=1,
                launch="CUDA_VISIBLE_DEVICES=3 accelerate launch --config_file config/default_config.yaml train.py"),
]

PF689_GOOD = [
    # the fix
    _JOB.format(extra="", procs=2, pin="", machines=1, launch=_LAUNCH),
    # tricky: the launch line's count wins over the file (PF230's ground)
    _JOB.format(extra="", procs=4, pin="", machines=1,
                launch="CUDA_VISIBLE_DEVICES=0,1 accelerate launch --config_file config/default_config.yaml "
                       "--num_processes 2 train.py"),
    # tricky: two machines, four processes in all, two per machine
    _JOB.format(extra="", procs=4, pin="", machines=2, launch=_LAUNCH),
    # tricky: the config chooses the devices itself
    _JOB.format(extra="gpu_ids: 0,1,2,3\n", procs=4, pin="", machines=1, launch=_LAUNCH),
    # tricky: the devices are a variable, known only at launch
    _JOB.format(extra="", procs=4, pin="", machines=1,
                launch="CUDA_VISIBLE_DEVICES=$GPUS accelerate launch --config_file config/default_config.yaml "
                       "train.py"),
]
