"""PF522 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_ACCELERATE_CONFIG = """\
# --- accelerate_config.yaml
compute_environment: LOCAL_MACHINE
deepspeed_config:
  gradient_accumulation_steps: {ga}
  zero_stage: 2
distributed_type: {dist}
mixed_precision: bf16
num_machines: 1
num_processes: 8
"""

_ACCELERATE = textwrap.dedent("""
    # --- train.py
    import argparse

    import torch
    from accelerate import Accelerator


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
        args = parser.parse_args()
        accelerator = Accelerator()
        model, optimizer, loader = build()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            loss = model(**batch).loss
    {scale}
            accelerator.backward(loss)
            if step % args.gradient_accumulation_steps == 0:
                optimizer.step()
                optimizer.zero_grad()


    if __name__ == "__main__":
        main()
""")

_ENGINE = textwrap.dedent("""
    # --- train.py
    import deepspeed


    def train(model, loader):
        engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                               config="ds_config.json")
        for batch in loader:
            loss = engine(batch).loss
            engine.backward({value})
            engine.step()
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": {ga},
     "zero_optimization": {{"stage": 2}}}}
""")

# DeepSpeed issue 7439: the steps read from the engine into a local first, then divided by
_ENGINE_LOCAL = textwrap.dedent("""
    # --- train.py
    import deepspeed


    def train(model, loader):
        engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                               config="ds_config.json")
        gas = {gas}
        for batch in loader:
            loss = engine(batch).loss
            loss = loss / gas
            engine.backward(loss)
            engine.step()
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8,
     "zero_optimization": {{"stage": 1}}}}
    # --- launch
    deepspeed --num_gpus 2 train.py
""")

_LAUNCH = """\
# --- launch
accelerate launch --config_file accelerate_config.yaml train.py --gradient_accumulation_steps {ga}
"""

PF522_BAD = [
    # accelerate issue 1767: the DeepSpeed-with-config example divides by the steps that the
    # DeepSpeed plugin's engine divides by again
    _ACCELERATE.format(scale="        loss = loss / args.gradient_accumulation_steps  # warning: PF522")
    + _ACCELERATE_CONFIG.format(ga=16, dist="DEEPSPEED") + _LAUNCH.format(ga=16),
    # a DeepSpeed engine, divided by its own steps and the config's literal
    _ENGINE.format(value="loss / engine.gradient_accumulation_steps()", ga=8) + """\
# --- launch
deepspeed --num_gpus 2 train.py
# --- expect
train.py:9: warning: PF522
""",
    _ENGINE.format(value="loss / 8", ga=8) + """\
# --- launch
deepspeed --num_gpus 2 train.py
# --- expect
train.py:9: warning: PF522
""",
    _ENGINE_LOCAL.format(gas="engine.gradient_accumulation_steps()") + """\
# --- expect
train.py:10: warning: PF522
""",
]

PF522_GOOD = [
    # the fix: the engine divides, the script does not
    _ACCELERATE.format(scale="        pass") + _ACCELERATE_CONFIG.format(ga=16, dist="DEEPSPEED")
    + _LAUNCH.format(ga=16),
    # no DeepSpeed: the manual division is the only one (Accelerator without accumulation steps)
    _ACCELERATE.format(scale="        loss = loss / args.gradient_accumulation_steps")
    + _ACCELERATE_CONFIG.format(ga=16, dist="MULTI_GPU").replace("deepspeed_config:\n  gradient_accumulation_steps: 16\n  zero_stage: 2\n", "")
    + _LAUNCH.format(ga=16),
    # DeepSpeed accumulates 1 micro-batch: nothing is divided twice
    _ACCELERATE.format(scale="        loss = loss / args.gradient_accumulation_steps")
    + _ACCELERATE_CONFIG.format(ga=1, dist="DEEPSPEED") + _LAUNCH.format(ga=1),
    # another divisor (tokens in the batch)
    _ENGINE.format(value="loss / batch['num_tokens']", ga=8) + """\
# --- launch
deepspeed --num_gpus 2 train.py
""",
    # a different number than the config's
    _ENGINE.format(value="loss / 4", ga=8) + """\
# --- launch
deepspeed --num_gpus 2 train.py
""",
    # a local that holds something else than the engine's steps (the world size)
    _ENGINE_LOCAL.format(gas="engine.world_size"),
]
