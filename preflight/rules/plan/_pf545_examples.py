"""PF545 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TRAIN = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch


    def main(model, train_dataset):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        engine, _, loader, _ = deepspeed.initialize(args=args, model=model, training_data=train_dataset){pin}
        for inputs, labels in loader:
            loss = torch.nn.functional.cross_entropy(engine(inputs.to(engine.device)), labels.to(engine.device))
            engine.backward(loss)
            engine.step()
    # --- ds_config.json
    {{"train_micro_batch_size_per_gpu": 16, "optimizer": {{"type": "AdamW", "params": {{"lr": 1e-4}}}}}}
""")

BAD_EXAMPLES = [
    # DeepSpeed issue 2980: train on GPUs 2 and 3 of a shared node
    _TRAIN.format(pin="  # warning: PF545") + """\
# --- launch
CUDA_VISIBLE_DEVICES=2,3 deepspeed --num_gpus 2 train.py --deepspeed --deepspeed_config ds_config.json
""",
    # env prefix, one GPU
    _TRAIN.format(pin="  # warning: PF545") + """\
# --- launch
env CUDA_VISIBLE_DEVICES=5 deepspeed --num_gpus=1 train.py --deepspeed_config ds_config.json
""",
    # Yi issue 392 / DeepSpeed issue 662: no device flag, the launcher turns the list into
    # --include localhost:2,3 but sees only two GPUs, numbered 0 and 1: "No slot '2'"
    _TRAIN.format(pin="  # warning: PF545") + """\
# --- launch
CUDA_VISIBLE_DEVICES=2,3 deepspeed train.py --deepspeed --deepspeed_config ds_config.json
""",
]

GOOD_EXAMPLES = [
    # the fix: the devices chosen with --include
    _TRAIN.format(pin="") + """\
# --- launch
deepspeed --include localhost:2,3 train.py --deepspeed --deepspeed_config ds_config.json
""",
    # CUDA_VISIBLE_DEVICES listing GPUs 0..N-1 without a device-count flag: the launcher turns it
    # into --include and every included slot exists
    _TRAIN.format(pin="") + """\
# --- launch
CUDA_VISIBLE_DEVICES=0,1 deepspeed train.py --deepspeed --deepspeed_config ds_config.json
""",
    # tricky-correct: the listed devices are GPUs 0..N-1, what --num_gpus picks anyway
    _TRAIN.format(pin="") + """\
# --- launch
CUDA_VISIBLE_DEVICES=0,1,2,3 deepspeed --num_gpus 4 train.py --deepspeed --deepspeed_config ds_config.json
""",
    # torchrun honours CUDA_VISIBLE_DEVICES
    _TRAIN.format(pin="") + """\
# --- launch
CUDA_VISIBLE_DEVICES=2,3 torchrun --nproc_per_node 2 train.py --deepspeed --deepspeed_config ds_config.json
""",
]
