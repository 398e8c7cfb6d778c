"""PF553 examples: small projects (``# --- <path>`` sections); bad ones must fire on the
pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF553_BAD = [
    # DeepSpeed issue 4910: a ZeRO-3 LLaMA-2 70B samples on rank 0 only
    textwrap.dedent("""
    # --- run_model.py
    import deepspeed
    import torch
    import torch.distributed as dist


    def main(model, tokenizer, prompts):
        engine = deepspeed.initialize(model=model, config="ds_config.json")[0]
        engine.module.eval()
        inputs = tokenizer(prompts, return_tensors="pt", padding=True).to(engine.device)
        if dist.get_rank() == 0:
            with torch.no_grad():
                out = engine.module.generate(**inputs, max_new_tokens=64)  # error: PF553
            print(tokenizer.batch_decode(out))
        dist.barrier()
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 8 run_model.py
"""),
    # a validation forward on the main process only, inside training
    textwrap.dedent("""
    # --- train.py
    import deepspeed


    def train(args, model, loader, val_batch):
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        for batch in loader:
            loss = engine(batch)
            engine.backward(loss)
            engine.step()
        if args.local_rank in (-1, 0):
            print("val loss", engine(val_batch).item())  # error: PF553
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 4 train.py --deepspeed --deepspeed_config ds_config.json
"""),
]

PF553_GOOD = [
    # the fix: generate on every rank, decode on rank 0
    textwrap.dedent("""
    # --- run_model.py
    import deepspeed
    import torch
    import torch.distributed as dist


    def main(model, tokenizer, prompts):
        engine = deepspeed.initialize(model=model, config="ds_config.json")[0]
        engine.module.eval()
        inputs = tokenizer(prompts, return_tensors="pt", padding=True).to(engine.device)
        with torch.no_grad():
            out = engine.module.generate(**inputs, max_new_tokens=64, synced_gpus=True)
        if dist.get_rank() == 0:
            print(tokenizer.batch_decode(out))
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 8 run_model.py
"""),
    # tricky: ZeRO-2 keeps whole weights on every rank, rank-0 sampling is fine
    textwrap.dedent("""
    # --- run_model.py
    import deepspeed
    import torch.distributed as dist


    def main(model, tokenizer, inputs):
        engine = deepspeed.initialize(model=model, config="ds_config.json")[0]
        if dist.get_rank() == 0:
            out = engine.module.generate(**inputs, max_new_tokens=64)
            print(tokenizer.batch_decode(out))
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 8 run_model.py
"""),
]
