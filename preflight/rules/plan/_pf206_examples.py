"""PF206 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # Firefly#30 shape: the script's own parser knows only its config-file option
    textwrap.dedent("""
    # --- train.py
    import argparse
    import json

    from transformers import HfArgumentParser, Trainer, TrainingArguments


    def main(model, dataset):
        parser = argparse.ArgumentParser()
        parser.add_argument("--train_args_file", type=str, default="train_args/sft.json")
        args = parser.parse_args()  # error: PF206
        with open(args.train_args_file) as f:
            train_args = json.load(f)
        (training_args,) = HfArgumentParser(TrainingArguments).parse_dict(train_args)
        Trainer(model=model, args=training_args, train_dataset=dataset).train()
    # --- launch
    deepspeed --num_gpus=2 train.py --train_args_file train_args/sft.json
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed


    def main(model):
        parser = argparse.ArgumentParser()
        parser.add_argument("--epochs", type=int, default=1)
        parser.add_argument("--local_rank", type=int, default=-1)
        args = parser.parse_args()
        engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters())
        return engine, args
    # --- launch
    deepspeed --num_gpus=2 train.py --epochs 3
"""),
    # tricky-correct: --no_local_rank (the rank comes from the environment); parse_known_args;
    # and a torchrun launch of a strict parser (torchrun passes LOCAL_RANK in the environment)
    """
# --- train.py
import argparse
import os


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    return args, int(os.environ["LOCAL_RANK"])
# --- launch
deepspeed --no_local_rank --num_gpus=2 train.py --epochs 3
""",
    """
# --- train.py
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args, _ = parser.parse_known_args()
    return args
# --- launch
deepspeed --num_gpus=2 train.py --epochs 3
""",
    """
# --- train.py
import argparse
import os


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args()
    return args, int(os.environ["LOCAL_RANK"])
# --- launch
torchrun --nproc_per_node=2 train.py --epochs 3
""",
]
