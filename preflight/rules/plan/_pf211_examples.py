"""PF211 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_CONFIG = dedent("""
    # --- accelerate_2node.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    num_machines: {machines}
    num_processes: {processes}
    machine_rank: 0
    main_process_ip: 10.0.0.1
    main_process_port: 29500
    # --- launch
    accelerate launch --config_file accelerate_2node.yaml --machine_rank 0 finetune.py
    """)

_FINETUNE = dedent("""
    # --- finetune.py
    import os
    import shutil

    from accelerate import Accelerator


    def clean_last_n_checkpoints(output_dir, keep_last_n):
        steps = sorted(int(d.split("_")[1]) for d in os.listdir(output_dir) if d.startswith("step_"))
        for step in steps[:-keep_last_n]:
            shutil.rmtree(os.path.join(output_dir, f"step_{{step}}"))


    def main(args, model, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
            if step % 500 == 0:
                accelerator.save_state(os.path.join(args.output_dir, f"step_{{step}}"))
                accelerator.wait_for_everyone()
                if {test}:
                    clean_last_n_checkpoints(args.output_dir, keep_last_n=3){pin}
                accelerator.wait_for_everyone()
    """)

PF211_BAD = [
    # open-instruct PR 975: the checkpoint clean-up once per node on a 2-node launch
    _FINETUNE.format(test="accelerator.is_local_main_process", pin="  # warning: PF211")
    + _CONFIG.format(machines=2, processes=16),
    # torchrun over 2 nodes, LOCAL_RANK 0 of each node removes the old export directly
    dedent("""
    # --- train.py
    import os
    import shutil

    import torch
    import torch.distributed as dist


    def main():
        dist.init_process_group("nccl")
        local_rank = int(os.environ["LOCAL_RANK"])
        model = torch.nn.Linear(8, 8).cuda(local_rank)
        ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
        dist.barrier()
        if local_rank == 0:
            if os.path.exists("/shared/export/latest"):
                shutil.rmtree("/shared/export/latest")  # warning: PF211
            torch.save(ddp.module.state_dict(), "/shared/export/model.pt")
    # --- launch
    torchrun --nnodes 2 --nproc_per_node 8 --rdzv_backend c10d --rdzv_endpoint host:29400 train.py
    """),
]

PF211_GOOD = [
    # the fix: the global main process does it
    _FINETUNE.format(test="accelerator.is_main_process", pin="") + _CONFIG.format(machines=2, processes=16),
    # tricky: the same clean-up on one machine (the local main process is the main process)
    _FINETUNE.format(test="accelerator.is_local_main_process", pin="") + _CONFIG.format(machines=1, processes=8),
    # tricky: a per-node cache filled by each node's local main process (nothing deleted)
    dedent("""
    # --- prep.py
    import os

    from accelerate import Accelerator
    from datasets import load_dataset


    def main():
        accelerator = Accelerator()
        if accelerator.is_local_main_process:
            os.makedirs("/tmp/cache", exist_ok=True)
            load_dataset("imdb", cache_dir="/tmp/cache")
        accelerator.wait_for_everyone()
    # --- accelerate.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    num_machines: 2
    num_processes: 16
    machine_rank: 0
    main_process_ip: 10.0.0.1
    main_process_port: 29500
    # --- launch
    accelerate launch --config_file accelerate.yaml prep.py
    """),
]
