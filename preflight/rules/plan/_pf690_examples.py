"""PF690 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command, ``# --- expect`` pins findings in the JSON); bad ones must fire at the pinned lines, good ones
stay silent."""

from __future__ import annotations

from textwrap import dedent

# a LlamaFactory-style entry point: the arguments are parsed inside the package (LlamaFactory issue 366)
_JOB = dedent("""
    # --- src/train_bash.py
    from llmtuner import run_exp


    def main():
        run_exp()


    if __name__ == "__main__":
        main()
    # --- ds_config.json
    {{
      "train_micro_batch_size_per_gpu": {micro},
      "gradient_accumulation_steps": {accum},
      "zero_optimization": {{"stage": 2}}
    }}
    # --- launch
    deepspeed --num_gpus 4 src/train_bash.py --deepspeed ds_config.json --stage sft --do_train --model_name_or_path Qwen/Qwen-7B --output_dir out --fp16 {more}
    {expect}""")

_OWN_ENGINE = dedent("""\
    import argparse

    import deepspeed
    import torch


    def run_exp():
        parser = argparse.ArgumentParser()
        for name in ("--deepspeed", "--stage", "--model_name_or_path", "--output_dir", "--local_rank"):
            parser.add_argument(name)
        args, _ = parser.parse_known_args()
        model = torch.nn.Linear(8, 8)
        engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                               config=args.deepspeed)""")

PF690_BAD = [
    # both keys left at the Trainer defaults (8 and 1) by the command line
    _JOB.format(micro=16, accum=8, more="", expect="# --- expect\nds_config.json:2: error: PF690\n"
                                                  "ds_config.json:3: error: PF690\n"),
    # a value given on the line that the JSON contradicts
    _JOB.format(micro=4, accum='"auto"', more="--per_device_train_batch_size 2",
                expect="# --- expect\nds_config.json:2: error: PF690\n"),
]

PF690_GOOD = [
    # the fix
    _JOB.format(micro='"auto"', accum='"auto"', more="", expect=""),
    # tricky: explicit values that agree with the line and the default
    _JOB.format(micro=4, accum=1, more="--per_device_train_batch_size 4", expect=""),
    # tricky: the script builds the engine itself; no Trainer compares the values
    _JOB.format(micro=16, accum=8, more="", expect="").replace("from llmtuner import run_exp", _OWN_ENGINE),
]
