"""PF326 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_DDPM = textwrap.dedent("""
    # --- train.py
    import torch
    import torch.nn.functional as F
    from accelerate import Accelerator
    from accelerate.utils import set_seed

    accelerator = Accelerator(mixed_precision="fp16")
    {seed}{pin}
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for epoch in range(100):
        for clean in loader:
            noise = torch.randn(clean.shape, device=clean.device)
            timesteps = torch.randint(0, 1000, (clean.shape[0],), device=clean.device)
            noisy = noise_scheduler.add_noise(clean, noise, timesteps)
            loss = F.mse_loss(model(noisy, timesteps).sample, noise)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
    # --- launch
    accelerate launch --multi_gpu --num_processes {procs} train.py
""")

BAD_EXAMPLES = [
    # accelerate issue 236: a DDPM loop on 4 processes, all seeded alike
    _DDPM.format(seed="set_seed(42)", pin="  # warning: PF326", procs=4),
    # raw DDP under torchrun: torch.manual_seed(seed) on every rank, flow-matching noise in a train() function
    textwrap.dedent("""
    # --- train.py
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP


    def train(model, loader, optimizer):
        for batch in loader:
            actions = batch["actions"].cuda()
            noise = torch.randn_like(actions)
            t = torch.rand(actions.shape[0], device=actions.device)
            x_t = t[:, None, None] * noise + (1 - t[:, None, None]) * actions
            loss = ((model(x_t, t) - (noise - actions)) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    def main():
        dist.init_process_group("nccl")
        torch.manual_seed(0)  # warning: PF326
        model = DDP(Policy().cuda())
        train(model, loader, torch.optim.AdamW(model.parameters()))


    main()
    # --- launch
    torchrun --nproc_per_node 8 train.py
    """),
]

GOOD_EXAMPLES = [
    # one process: nothing to repeat
    _DDPM.format(seed="set_seed(42)", pin="", procs=1),
    # the fix: accelerate adds the process index to the seed
    _DDPM.format(seed="set_seed(42, device_specific=True)", pin="", procs=4),
    # the fix by hand: the seed offset by the rank
    _DDPM.format(seed="set_seed(42 + accelerator.process_index)", pin="", procs=4),
    # never seeded: each process starts from its own random state
    _DDPM.format(seed="", pin="", procs=4),
    # tricky-correct: seeded alike for the identical initialisation, then reseeded per rank before training
    _DDPM.format(seed="set_seed(42)\nmodel = build()\nset_seed(42 + accelerator.process_index)",
                 pin="", procs=4),
    # tricky-correct: the noise comes from a per-rank generator; the only global draw is under the main process
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from accelerate.utils import set_seed

    accelerator = Accelerator()
    set_seed(42)
    gen = torch.Generator(device=accelerator.device).manual_seed(42 + accelerator.process_index)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for clean in loader:
        noise = torch.randn(clean.shape, device=clean.device, generator=gen)
        loss = ((model(clean + noise) - noise) ** 2).mean()
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        if accelerator.is_main_process:
            save_preview(torch.randn(1, 3, 64, 64))
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
    """),
    # tricky-correct (DiT's train.py): the seed variable is computed from the rank before the seeding call
    textwrap.dedent("""
    # --- train.py
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP


    def set_all_seeds(seed):
        torch.manual_seed(seed)
        torch.cuda.manual_seed_all(seed)


    def main(args):
        dist.init_process_group("nccl")
        rank = dist.get_rank()
        seed = args.global_seed * dist.get_world_size() + rank
        torch.manual_seed(seed)
        model = DDP(DiT().to(rank), device_ids=[rank])
        for x, y in loader:
            t = torch.randint(0, 1000, (x.shape[0],), device=rank)
            loss = diffusion.training_losses(model, x, t, dict(y=y))["loss"].mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    # --- launch
    torchrun --nnodes 1 --nproc_per_node 8 train.py --model DiT-XL/2
    """),
    # tricky-correct: random draws only outside the training loop (initial weights, an evaluation loop)
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator
    from accelerate.utils import set_seed

    accelerator = Accelerator()
    set_seed(42)
    prompt_embeddings = torch.nn.Parameter(torch.randn(16, 768))
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    for batch in eval_loader:
        with torch.no_grad():
            out = model(batch["x"] + 0.01 * torch.randn_like(batch["x"]))
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
    """),
    # tricky-correct (pytorch/examples' tensor_parallel_example.py): tensor parallelism needs the same input on
    # every rank of the group, so every rank is seeded alike on purpose before drawing it
    textwrap.dedent("""
    # --- tensor_parallel_example.py
    import os

    import torch
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

    mesh = init_device_mesh("cuda", (int(os.environ["WORLD_SIZE"]),))
    torch.manual_seed(0)
    model = parallelize_module(ToyMLP().to("cuda"), mesh, {"in_proj": ColwiseParallel(), "out_proj": RowwiseParallel()})
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.25)
    for i in range(1000):
        torch.manual_seed(i)
        inp = torch.rand(20, 1024, device="cuda")
        model(inp).sum().backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    # --- launch
    torchrun --nproc_per_node 4 tensor_parallel_example.py
    """),
]
