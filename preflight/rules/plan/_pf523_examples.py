"""PF523 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import deepspeed


    def train(policy, batches, ds_config):
        model, optimizer, _, _ = deepspeed.initialize(model=policy, model_parameters=policy.parameters(),
                                                      config="ds_config.json")
        for micro_batches in batches:
            for i, mb in enumerate(micro_batches):
    {boundary}            loss = model(**mb).loss / len(micro_batches)
                model.backward(loss){pin}
            model.step()
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": {ga},
     "zero_optimization": {{"stage": 2}}, "bf16": {{"enabled": true}}}}
    # --- launch
    deepspeed --num_gpus 8 train.py
""")

PF523_BAD = [
    # open-instruct GRPO: micro-batches accumulated by hand, the engine told GA = 1
    _TRAIN.format(boundary="", pin="  # error: PF523", ga=1),
]

PF523_GOOD = [
    # the fix: the engine is told where the window ends
    _TRAIN.format(boundary="            model.set_gradient_accumulation_boundary(i == len(micro_batches) - 1)\n",
                  pin="", ga=1),
    # the config's steps match a window the engine manages
    _TRAIN.format(boundary="", pin="", ga=4),
    # the usual loop: a step after every backward
    textwrap.dedent("""
    # --- train.py
    import deepspeed


    def train(policy, loader):
        model, optimizer, _, _ = deepspeed.initialize(model=policy, model_parameters=policy.parameters(),
                                                      config="ds_config.json")
        for epoch in range(3):
            for batch in loader:
                model.backward(model(**batch).loss)
                model.step()
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1, "zero_optimization": {"stage": 2}}
    # --- launch
    deepspeed --num_gpus 8 train.py
"""),
]

_HANDMADE = textwrap.dedent("""
    # --- loop.py
    def train(model_engine, loader, accum, epochs):
        for epoch in range(epochs):
            for step, batch in enumerate(loader):
                loss = model_engine(**batch).loss / accum
                model_engine.backward(loss){pin}
                if (step + 1) % accum == 0:
                    model_engine.step()
    # --- run.py
    import deepspeed

    from loop import train


    def main(net, loader, cfg):
        model_engine, _, _, _ = deepspeed.initialize(model=net, model_parameters=net.parameters(),
                                                     config="ds_config.json")
        train(model_engine, loader, cfg.accum, cfg.epochs)
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": {ga},
     "zero_optimization": {{"stage": 2}}, "fp16": {{"enabled": true}}}}
    # --- launch
    deepspeed --num_gpus 4 run.py
""")

# SLAM-LLM's DeepSpeed loop: the engine, handed in as a parameter, is stepped at a hand-made boundary
PF523_BAD.append(_HANDMADE.format(pin="  # error: PF523", ga=1))

PF523_GOOD.append(
    # the same loop with the engine told the real accumulation: DeepSpeed owns the window (a step
    # call between boundaries is a no-op bookkeeping step, and backward scales the loss itself)
    _HANDMADE.format(pin="", ga=8).replace("            if (step + 1) % accum == 0:\n"
                                            "                model_engine.step()",
                                            "            model_engine.step()").replace(" / accum", ""))
