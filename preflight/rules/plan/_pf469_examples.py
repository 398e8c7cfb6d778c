"""PF469 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch command);
findings on JSON lines are pinned in a ``# --- expect`` section."""

import textwrap

BAD_EXAMPLES = [
    # DeepSpeed issue 6992: CosineAnnealingLR in the config with fp16 and ZeRO stage 2
    textwrap.dedent("""
    # --- trainer.py
    import deepspeed


    def build(args, model, trainset):
        engine, optimizer, loader, scheduler = deepspeed.initialize(
            args=args, model=model, model_parameters=model.parameters(), training_data=trainset,
            config="./deepspeed.json")
        return engine, loader
    # --- deepspeed.json
    {
      "train_batch_size": 4,
      "optimizer": {"type": "AdamW", "params": {"lr": 0.0005}},
      "scheduler": {
        "type": "CosineAnnealingLR",
        "params": {"T_max": 10, "eta_min": 0.000005}
      },
      "fp16": {"enabled": true},
      "zero_optimization": {"stage": 2}
    }
    # --- expect
    deepspeed.json:5: error: PF469
"""),
    # no ZeRO, but bf16 on: the BF16_Optimizer wrapper is what the StepLR receives
    textwrap.dedent("""
    # --- train.py
    import deepspeed


    def build(model):
        return deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {
      "train_micro_batch_size_per_gpu": 16,
      "optimizer": {"type": "Adam", "params": {"lr": 1e-4}},
      "bf16": {"enabled": true},
      "scheduler": {"type": "StepLR", "params": {"step_size": 1000, "gamma": 0.5}}
    }
    # --- expect
    ds.json:5: error: PF469
"""),
]

GOOD_EXAMPLES = [
    # the 6992 fix: DeepSpeed's own cosine schedule
    textwrap.dedent("""
    # --- trainer.py
    import deepspeed


    def build(args, model, trainset):
        engine, optimizer, loader, scheduler = deepspeed.initialize(
            args=args, model=model, model_parameters=model.parameters(), training_data=trainset,
            config="./deepspeed.json")
        return engine, loader
    # --- deepspeed.json
    {
      "train_batch_size": 4,
      "optimizer": {"type": "AdamW", "params": {"lr": 0.0005}},
      "scheduler": {
        "type": "WarmupCosineLR",
        "params": {"total_num_steps": 10000, "warmup_num_steps": 200, "cos_min_ratio": 0.01}
      },
      "fp16": {"enabled": true},
      "zero_optimization": {"stage": 2}
    }
"""),
    # tricky-correct: a torch scheduler in an fp32 config without ZeRO gets the torch optimizer itself
    textwrap.dedent("""
    # --- train.py
    import deepspeed


    def build(model):
        return deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {
      "train_micro_batch_size_per_gpu": 16,
      "optimizer": {"type": "Adam", "params": {"lr": 1e-4}},
      "fp16": {"enabled": false},
      "zero_optimization": {"stage": 0},
      "scheduler": {"type": "StepLR", "params": {"step_size": 1000, "gamma": 0.5}}
    }
"""),
    # tricky-correct: the script passes its own scheduler (a callable DeepSpeed calls with the torch
    # optimizer); from 0.14.5 the config's block is not built
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch


    def build(model):
        def make_scheduler(optimizer):
            return torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=1000)

        return deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                    lr_scheduler=make_scheduler, config="ds.json")
    # --- ds.json
    {
      "train_micro_batch_size_per_gpu": 16,
      "optimizer": {"type": "Adam", "params": {"lr": 1e-4}},
      "zero_optimization": {"stage": 2},
      "scheduler": {"type": "CosineAnnealingLR", "params": {"T_max": 1000}}
    }
"""),
]
