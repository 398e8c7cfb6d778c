"""PF281 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

# DeepSpeed PR 6554's shape: zero_grad at the top of every micro-batch
_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed


    def train(model, loader, epochs):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        for epoch in range(epochs):
            for step, batch in enumerate(loader):
    {body}
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": {ga}{zero}}}
    # --- launch
    deepspeed --num_gpus 4 train.py --deepspeed --deepspeed_config ds_config.json
""")

_TOP = """\
            engine.zero_grad(){pin}
            loss = engine(**batch).loss
            engine.backward(loss)
            engine.step()"""

_AFTER = """\
            loss = engine(**batch).loss
            engine.backward(loss)
            engine.step()
            optimizer.zero_grad(){pin}"""

_GUARDED = """\
            loss = engine(**batch).loss
            engine.backward(loss)
            engine.step()
            if engine.is_gradient_accumulation_boundary():
                engine.zero_grad()"""

_NONE = """\
            loss = engine(**batch).loss
            engine.backward(loss)
            engine.step()"""

_STAGE1 = ', "zero_optimization": {"stage": 1}'
_STAGE2 = ', "zero_optimization": {"stage": 2}'

BAD_EXAMPLES = [
    # the report: ZeRO-1, 8 micro-batches per update, zero_grad first in the loop
    _TRAIN.format(body=_TOP.format(pin="  # warning: PF281"), ga=8, zero=_STAGE1),
    # the optimizer deepspeed.initialize returned, cleared after every step; no ZeRO section (stage 0)
    _TRAIN.format(body=_AFTER.format(pin="  # warning: PF281"), ga=4, zero=""),
    # a module-level script with the zero_grad inside a `with` block
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch

    engine, _, loader, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                training_data=dataset, config="ds_config.json")
    for batch in loader:
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=False):
            engine.zero_grad()  # warning: PF281
            loss = engine(batch)
        engine.backward(loss)
        engine.step()
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 16, "zero_optimization": {"stage": 1}}
    # --- launch
    deepspeed --num_gpus 2 train.py
"""),
]

GOOD_EXAMPLES = [
    # the fix: no manual zero_grad, the engine zeroes after its update
    _TRAIN.format(body=_NONE, ga=8, zero=_STAGE1),
    # zero_grad only at the accumulation boundary
    _TRAIN.format(body=_GUARDED, ga=8, zero=_STAGE1),
    # no accumulation in the config: one micro-batch per update, zero_grad is harmless
    _TRAIN.format(body=_TOP.format(pin=""), ga=1, zero=_STAGE1),
    # tricky-correct: ZeRO-2 moves each micro-batch's gradient into its partitions during backward
    _TRAIN.format(body=_TOP.format(pin=""), ga=8, zero=_STAGE2),
    # tricky-correct: the zero_grad belongs to a separate torch optimizer of a discriminator
    _TRAIN.format(body="""\
            loss = engine(**batch).loss
            engine.backward(loss)
            engine.step()
            disc_optimizer.zero_grad()""", ga=8, zero=_STAGE1),
    # tricky-correct: bf16 with an fp32 accumulation dtype keeps the sum outside `.grad`
    _TRAIN.format(body=_TOP.format(pin=""), ga=8,
                  zero=', "bf16": {"enabled": true}, "data_types": {"grad_accum_dtype": "fp32"}' + _STAGE1),
]
