"""PF625 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# a SegFormer fine-tune in a 3-GPU SLURM allocation under an accelerate config written on a full 8-GPU node
# (accelerate issue 1643's shape)
_JOB = dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model = torch.nn.Linear(16, 2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-5)
    model, optimizer = accelerator.prepare(model, optimizer)
    # --- default_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    machine_rank: 0
    mixed_precision: fp16
    num_machines: {machines}
    gpu_ids: {ids}{ids_pin}
    num_processes: {procs}{procs_pin}
    use_cpu: false
    # --- job.sbatch
    #!/bin/bash
    #SBATCH -N 1
    #SBATCH --gres=gpu:3
    srun {launch}
    # --- launch
    {launch}
    """)

_LAUNCH = "accelerate launch --config_file default_config.yaml train.py"

PF625_BAD = [
    _JOB.format(machines=1, ids="0,1,2,3,4,5,6,7", ids_pin="  # error: PF625", procs=8, procs_pin="",
                launch=_LAUNCH),
    # gpu_ids all (the allocation's devices) but more processes than allocated GPUs
    _JOB.format(machines=1, ids="all", ids_pin="", procs=4, procs_pin="  # error: PF625", launch=_LAUNCH),
]

PF625_GOOD = [
    # the fix: the config follows the allocation
    _JOB.format(machines=1, ids="all", ids_pin="", procs=3, procs_pin="", launch=_LAUNCH),
    # tricky: the ids are renumbered within the allocation (0..2)
    _JOB.format(machines=1, ids="0,1,2", ids_pin="", procs=3, procs_pin="", launch=_LAUNCH),
    # tricky: the launch line's count wins over the file
    _JOB.format(machines=1, ids="all", ids_pin="", procs=8, procs_pin="",
                launch="accelerate launch --config_file default_config.yaml --num_processes 3 train.py"),
    # tricky: two machines (the count is over both)
    _JOB.format(machines=2, ids="all", ids_pin="", procs=6, procs_pin="", launch=_LAUNCH),
]
