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
    # huggingface/trl issue 596: an HfArgumentParser over the script's own dataclass only, started by the
    # deepspeed launcher ("Some specified arguments are not used by the HfArgumentParser: ['--local_rank=0']")
    textwrap.dedent("""
    # --- sft.py
    from dataclasses import dataclass, field
    from typing import Optional

    from transformers import HfArgumentParser, TrainingArguments


    @dataclass
    class ScriptArguments:
        model_name: Optional[str] = field(default="facebook/opt-350m")
        batch_size: Optional[int] = field(default=8)
        deepspeed: Optional[str] = field(default=None)


    parser = HfArgumentParser(ScriptArguments)
    script_args = parser.parse_args_into_dataclasses()[0]  # error: PF206
    training_args = TrainingArguments(output_dir="out", per_device_train_batch_size=script_args.batch_size,
                                      deepspeed=script_args.deepspeed)
    # --- launch
    deepspeed sft.py --model_name facebook/opt-350m --deepspeed ds.json
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
    textwrap.dedent("""
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
    """),
    textwrap.dedent("""
    # --- train.py
    import argparse


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--epochs", type=int, default=1)
        args, _ = parser.parse_known_args()
        return args
    # --- launch
    deepspeed --num_gpus=2 train.py --epochs 3
    """),
    textwrap.dedent("""
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
    """),
    # tricky-correct: HfArgumentParser with TrainingArguments (which defines --local_rank) beside the script's
    # own dataclass; and one that keeps the unknown options (return_remaining_strings=True)
    textwrap.dedent("""
    # --- train.py
    from dataclasses import dataclass, field

    from transformers import HfArgumentParser, TrainingArguments


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="gpt2")


    def main():
        model_args, training_args = HfArgumentParser((ModelArguments, TrainingArguments)).parse_args_into_dataclasses()
        return model_args, training_args
    # --- launch
    deepspeed --num_gpus=2 train.py --output_dir out --deepspeed ds.json
    """),
    textwrap.dedent("""
    # --- train.py
    from dataclasses import dataclass, field

    from transformers import HfArgumentParser


    @dataclass
    class Args:
        data: str = field(default="data.jsonl")


    def main():
        parser = HfArgumentParser(Args)
        args, extra = parser.parse_args_into_dataclasses(return_remaining_strings=True)
        return args, extra
    # --- launch
    deepspeed --num_gpus=2 train.py --data d.jsonl
    """),
    # tricky-correct: the script's own dataclass inherits (here from TrainingArguments, which has the field)
    textwrap.dedent("""
    # --- train.py
    from dataclasses import dataclass, field

    from transformers import HfArgumentParser, TrainingArguments


    @dataclass
    class MyTrainingArguments(TrainingArguments):
        lora_r: int = field(default=8)


    def main():
        (args,) = HfArgumentParser(MyTrainingArguments).parse_args_into_dataclasses()
        return args
    # --- launch
    deepspeed --num_gpus=2 train.py --output_dir out --lora_r 16
    """),
]
