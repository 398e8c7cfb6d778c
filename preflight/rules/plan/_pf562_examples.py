"""PF562 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

BAD_EXAMPLES = [
    # accelerate#707 shape
    dedent("""
    # --- train.py
    from accelerate import Accelerator


    def main(model, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    mixed_precision: fp16
    num_machines: 1
    num_processes: 4  # warning: PF562
    # --- launch
    python train.py
    """),
]

GOOD_EXAMPLES = [
    # the fix
    dedent("""
    # --- train.py
    from accelerate import Accelerator


    def main(model, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    num_machines: 1
    num_processes: 4
    # --- launch
    accelerate launch --config_file accelerate_config.yaml train.py
    """),
    # tricky-correct: the script spawns its processes with notebook_launcher; a one-process config
    dedent("""
    # --- train.py
    from accelerate import Accelerator, notebook_launcher


    def main():
        accelerator = Accelerator()
        print(accelerator.num_processes)


    notebook_launcher(main, num_processes=4)
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    num_machines: 1
    num_processes: 4
    # --- launch
    python train.py
    """),
    dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: 'NO'
    num_machines: 1
    num_processes: 1
    # --- launch
    python train.py
    """),
]
