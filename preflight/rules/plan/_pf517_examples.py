"""PF517 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire, good ones stay silent."""

from __future__ import annotations

import textwrap

PF517_BAD = [
    # diffusers issue 2606: the checkpoint saved on the main process, launched with --use_deepspeed
    textwrap.dedent("""
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
"""),
    # the ZeRO stage comes from the DeepSpeed config file
    textwrap.dedent("""
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
"""),
    # transformers PR 29980: a PEFT prompt-learning model saved on rank 0 only under ZeRO-3 (hangs)
    textwrap.dedent("""
    # --- finetune.py
    import deepspeed
    import torch.distributed as dist
    from peft import PromptEncoderConfig, get_peft_model


    def main(args, model, loader):
        model = get_peft_model(model, PromptEncoderConfig(task_type="CAUSAL_LM", num_virtual_tokens=20))
        engine, _, _, _ = deepspeed.initialize(model=model, config=args.deepspeed,
                                               model_parameters=[p for p in model.parameters() if p.requires_grad])
        for step, batch in enumerate(loader):
            engine.backward(engine(**batch).loss)
            engine.step()
            if step % 500 == 0 and dist.get_rank() == 0:
                model.save_pretrained(args.output_dir)  # error: PF517
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": true},
     "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}}
    # --- launch
    deepspeed --num_gpus 4 finetune.py --deepspeed ds_config.json
"""),
]

PF517_GOOD = [
    # every process saves
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer = accelerator.prepare(model, optimizer)
    accelerator.save_state("final")
    if accelerator.is_main_process:
        tokenizer.save_pretrained("final")
    # --- launch
    accelerate launch --use_deepspeed --zero_stage 2 --num_processes 2 train.py
"""),
    # plain DDP: saving on the main process works
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer = accelerator.prepare(model, optimizer)
    if accelerator.is_main_process:
        accelerator.save_state("final")
    # --- launch
    accelerate launch --multi_gpu --num_processes 2 train.py
"""),
    # the diffusers guard lets DeepSpeed ranks through
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator
    from accelerate.utils import DistributedType

    accelerator = Accelerator()
    model, optimizer = accelerator.prepare(model, optimizer)
    if accelerator.is_main_process or accelerator.distributed_type == DistributedType.DEEPSPEED:
        accelerator.save_state("final")
    # --- launch
    accelerate launch --use_deepspeed --zero_stage 3 --num_processes 2 train.py
"""),
    # the fix: every rank saves (the main process writes); and the engine's module saved with a
    # gathered state dict on rank 0
    textwrap.dedent("""
    # --- finetune.py
    import deepspeed
    import torch.distributed as dist


    def main(args, model, loader):
        engine, _, _, _ = deepspeed.initialize(model=model, config=args.deepspeed)
        for step, batch in enumerate(loader):
            engine.backward(engine(**batch).loss)
            engine.step()
        model.save_pretrained(args.output_dir, is_main_process=dist.get_rank() == 0)
        state = engine._zero3_consolidated_16bit_state_dict()
        if dist.get_rank() == 0:
            engine.module.save_pretrained(args.output_dir, state_dict=state)
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 1, "optimizer": {"type": "AdamW", "params": {"lr": 1e-5}}, "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}}
    # --- launch
    deepspeed --num_gpus 4 finetune.py --deepspeed ds_config.json
"""),
    # ZeRO-2: whole parameters on every rank, the usual rank-0 save
    textwrap.dedent("""
    # --- finetune.py
    import deepspeed
    import torch.distributed as dist


    def main(args, model, loader):
        engine, _, _, _ = deepspeed.initialize(model=model, config=args.deepspeed)
        for batch in loader:
            engine.backward(engine(**batch).loss)
            engine.step()
        if dist.get_rank() == 0:
            model.save_pretrained(args.output_dir)
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 1, "optimizer": {"type": "AdamW", "params": {"lr": 1e-5}}, "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 4 finetune.py --deepspeed ds_config.json
"""),
]
