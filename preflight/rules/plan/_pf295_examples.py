"""PF295 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# ManifoldRG/NEKO#33's shape: wandb.init on every process, only the logging guarded
_WANDB = textwrap.dedent("""
    # --- train.py
    import torch
    import wandb
    from accelerate import Accelerator

    accelerator = Accelerator()
    {init}
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for step, (x, y) in enumerate(loader):
        loss = model(x, y)
        optimizer.zero_grad()
        accelerator.backward(loss)
        optimizer.step()
        if accelerator.is_main_process and step % 50 == 0:
            wandb.log({{"loss": loss.item()}}, step=step)
    # --- launch
    accelerate launch --multi_gpu --num_processes {n} train.py
""")

# huggingface/accelerate#644's shape: init_trackers on every process
_TRACKERS = textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator(log_with="wandb")
    {init}
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    # --- requirements.txt
    accelerate{pin}
    wandb
    # --- launch
    accelerate launch --multi_gpu --num_processes 8 train.py
""")

BAD_EXAMPLES = [
    _WANDB.format(init='wandb.init(project="gato-control")  # warning: PF295', n=4),
    _TRACKERS.format(init='accelerator.init_trackers("mnli")  # warning: PF295', pin="==0.12.0"),
    # a setup helper called by every rank under torchrun
    textwrap.dedent("""
    # --- train.py
    import torch.distributed as dist
    import wandb


    def setup_logging(cfg):
        wandb.init(project="detr", config=cfg)  # warning: PF295


    def main(cfg):
        dist.init_process_group("nccl")
        setup_logging(cfg)
        train(cfg)
    # --- launch
    torchrun --nproc_per_node 8 train.py
"""),
]

GOOD_EXAMPLES = [
    # the fix: the main process only
    _WANDB.format(init='if accelerator.is_main_process:\n    wandb.init(project="gato-control")', n=4),
    # one process
    _WANDB.format(init='wandb.init(project="gato-control")', n=1),
    # tricky: one run per rank on purpose, grouped
    _WANDB.format(init='wandb.init(project="gato-control", group="exp-7")', n=4),
    # tricky: an early return off the main rank in the helper's caller, and mode computed per rank
    textwrap.dedent("""
    # --- train.py
    import torch.distributed as dist
    import wandb


    def setup_logging(cfg, rank):
        if rank != 0:
            return
        wandb.init(project="detr", config=cfg)


    def main(cfg):
        dist.init_process_group("nccl")
        setup_logging(cfg, dist.get_rank())
        wandb.init(project="detr", mode="online" if dist.get_rank() == 0 else "disabled")
    # --- launch
    torchrun --nproc_per_node 8 train.py
"""),
    # tricky: the guard through a name bound from the rank test (nanochat's form)
    _WANDB.format(init='use_dummy_wandb = not accelerator.is_main_process\n'
                       'run = DummyWandb() if use_dummy_wandb else wandb.init(project="gato-control")', n=4),
    # accelerate 0.13 and later start the trackers on the main process only
    _TRACKERS.format(init='accelerator.init_trackers("mnli")', pin="==0.25.0"),
    _TRACKERS.format(init='if accelerator.is_main_process:\n    accelerator.init_trackers("mnli")', pin="==0.12.0"),
]
