"""PF232 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # DeepSpeed#3961: the Hugging Face spelling to a plain argparse script
    textwrap.dedent("""
    # --- main.py
    import argparse

    import deepspeed


    def main(model):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser.add_argument("--epochs", type=int, default=10)
        args = parser.parse_args()  # error: PF232
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        return engine
    # --- launch
    deepspeed --num_gpus 4 main.py --epochs 10 --deepspeed ./ds_config.json
"""),
    # add_config_arguments makes --deepspeed a switch: the path is left over
    textwrap.dedent("""
    # --- main.py
    import argparse

    import deepspeed


    def main(model):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()  # error: PF232
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        return engine
    # --- launch
    deepspeed --num_gpus 4 main.py --deepspeed=ds_config.json
"""),
]

GOOD_EXAMPLES = [
    # the fix
    textwrap.dedent("""
    # --- main.py
    import argparse

    import deepspeed


    def main(model):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser = deepspeed.add_config_arguments(parser)
        args = parser.parse_args()
        engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
        return engine
    # --- launch
    deepspeed --num_gpus 4 main.py --deepspeed --deepspeed_config ./ds_config.json
"""),
    # tricky-correct: the script defines --deepspeed as a path of its own
    textwrap.dedent("""
    # --- main.py
    import argparse

    import deepspeed


    def main(model):
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default=-1)
        parser.add_argument("--deepspeed", type=str, default=None)
        args = parser.parse_args()
        engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=args.deepspeed)
        return engine
    # --- launch
    deepspeed --num_gpus 4 main.py --deepspeed ds_config.json
"""),
    # tricky-correct: TrainingArguments' --deepspeed takes the path
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments


    def main(model, dataset):
        (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
        Trainer(model=model, args=args, train_dataset=dataset).train()
    # --- launch
    deepspeed --num_gpus 4 train.py --output_dir out --deepspeed ds_config.json
"""),
]
