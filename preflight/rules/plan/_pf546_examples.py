"""PF546 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed


    def train(model, train_loader):
        parser = argparse.ArgumentParser()
        parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
        parser.add_argument("--local_rank", type=int, default=-1)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        for epoch in range(3):
            for step, batch in enumerate(train_loader):
                loss = engine(**batch).loss
                engine.backward(loss)
    {step}
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": {ga}, "zero_optimization": {{"stage": 1}}}}
    # --- launch
    deepspeed --num_gpus 4 train.py --deepspeed --deepspeed_config ds_config.json --gradient_accumulation_steps {launch_ga}
""")

_GUARDED = """\
            if (step + 1) % args.gradient_accumulation_steps == 0:
                engine.step(){pin}"""

BAD_EXAMPLES = [
    # DeepSpeed issue 758: a trainer's own accumulation kept after the port
    _TRAIN.format(step=_GUARDED.format(pin="  # error: PF546"), ga=4, launch_ga=4),
]

GOOD_EXAMPLES = [
    # the fix: a step after every backward, the engine accumulates
    _TRAIN.format(step="            engine.step()", ga=4, launch_ga=4),
    # tricky-correct: a step on every micro-batch; the script's window only counts optimizer updates for its log
    _TRAIN.format(step="""\
            engine.step()
            if (step + 1) % args.gradient_accumulation_steps == 0:
                print(f"update {(step + 1) // args.gradient_accumulation_steps}: loss {loss.item():.4f}")""",
                  ga=4, launch_ga=4),
    # a plain torch optimizer stepped every 4 micro-batches (no engine)
    textwrap.dedent("""
    # --- train.py
    import torch


    def train(model, loader):
        optimizer = torch.optim.AdamW(model.parameters())
        for step, batch in enumerate(loader):
            loss = model(**batch).loss / 4
            loss.backward()
            if (step + 1) % 4 == 0:
                optimizer.step()
                optimizer.zero_grad()
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 4}
"""),
]
