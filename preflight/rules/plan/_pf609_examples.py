"""PF609 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_MEGATRON = textwrap.dedent("""
    # --- training.py
    import json

    import deepspeed


    def setup(args, model, optimizer, lr_scheduler):
        with open(args.deepspeed_config) as f:
            config = json.load(f)
        config["train_micro_batch_size_per_gpu"] = args.micro_batch_size
        {clear}model, optimizer, _, lr_scheduler = deepspeed.initialize({pin}
            model=model, optimizer=optimizer, lr_scheduler=lr_scheduler, config=config, {args})
        return model, optimizer, lr_scheduler
""")

_ARGPARSE = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed


    def main(model):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser.add_argument("--zero_stage", type=int, default=2)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        ds_config = {{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {{"stage": args.zero_stage}}}}
        engine, *_ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),{pin}
                                          config=ds_config)
        return engine
""")

PF609_BAD = [
    # Megatron-DeepSpeed issue 164: the code loads args.deepspeed_config itself and passes both
    _MEGATRON.format(clear="", pin="  # error: PF609", args="args=args"),
    # the launch line passes --deepspeed_config, the code builds its own dict
    _ARGPARSE.format(pin="  # error: PF609") + """\
# --- launch
deepspeed --num_gpus 2 train.py --deepspeed --deepspeed_config ds_config.json --zero_stage 3
""",
]

PF609_GOOD = [
    # the fix: no args=
    _MEGATRON.format(clear="", pin="", args="mpu=None"),
    # tricky-correct: Megatron-DeepSpeed today clears the path after loading it
    _MEGATRON.format(clear="args.deepspeed_config = None\n    ", pin="", args="args=args"),
    # no --deepspeed_config on the launch line and the attribute is never read as a path
    _ARGPARSE.format(pin="") + """\
# --- launch
deepspeed --num_gpus 2 train.py --zero_stage 3
""",
    # tricky-correct: DeepSpeed 0.8.3 pinned, whose engine takes `config` and ignores the argument
    _ARGPARSE.format(pin="") + """\
# --- requirements.txt
deepspeed==0.8.3
# --- launch
deepspeed --num_gpus 2 train.py --deepspeed --deepspeed_config ds_config.json
""",
]
