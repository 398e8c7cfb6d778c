"""PF298 examples (small projects): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# deepspeedai/DeepSpeed#4064's shape: the parameter count (and the TFLOPs from it) taken from the engine
_COUNT = textwrap.dedent("""
    # --- train.py
    import deepspeed
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained("facebook/opt-1.3b")
    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    num_params = sum({count} for p in engine.parameters())  # {pin}
    print(f"training {{num_params / 1e9:.2f}}B parameters")
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 8, "zero_optimization": {{"stage": {stage}}}}}
    # --- launch
    deepspeed --num_gpus 2 train.py --deepspeed --deepspeed_config ds_config.json
""")

BAD_EXAMPLES = [
    _COUNT.format(count="p.numel()", pin="warning: PF298", stage=3),
    # the model handed to deepspeed.initialize, counted afterwards in a loop over named_parameters
    textwrap.dedent("""
    # --- main.py
    import deepspeed


    def setup(model, args):
        engine, optimizer, _, _ = deepspeed.initialize(model=model, config="ds_z3.json")
        trainable = 0
        for name, p in model.named_parameters():
            if p.requires_grad:
                trainable += p.numel()  # warning: PF298
        return engine, trainable
    # --- ds_z3.json
    {"train_batch_size": 32, "zero_optimization": {"stage": 3}}
    # --- launch
    torchrun --nproc_per_node 8 main.py
"""),
]

GOOD_EXAMPLES = [
    # the fix
    _COUNT.format(count='p.ds_numel if hasattr(p, "ds_numel") else p.numel()', pin="the real size", stage=3),
    # ZeRO-2: the parameters are whole on every rank
    _COUNT.format(count="p.numel()", pin="whole parameters", stage=2),
    # tricky: counted before deepspeed.initialize partitions the model
    textwrap.dedent("""
    # --- train.py
    import deepspeed

    num_params = sum(p.numel() for p in model.parameters())
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
    # --- ds.json
    {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3}}
    # --- launch
    deepspeed --num_gpus 4 train.py
"""),
]
