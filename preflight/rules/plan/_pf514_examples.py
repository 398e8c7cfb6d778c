"""PF514 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF514_BAD = [
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainingArguments

    (args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")  # warning: PF514
    # --- launch
    python train.py --output_dir out --fp16
"""),
    textwrap.dedent("""
    # --- train.py
    import hydra

    model_name = cfg.model_name
    # --- config.yaml
    model_name: google/flan-t5-large
    trainer:
      _target_: lightning.Trainer
      precision: 16-mixed  # warning: PF514
"""),
    # DeepSpeed issue 643: T5-large trained by DeepSpeed with the config's fp16 section on
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    from transformers import T5ForConditionalGeneration

    model = T5ForConditionalGeneration.from_pretrained("t5-large")
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": 4,
      "fp16": {
        "enabled": true,
        "loss_scale": 0
      },
      "zero_optimization": {"stage": 2}
    }
    # --- launch
    deepspeed --num_gpus 1 train.py
    # --- expect
    ds_config.json:4: warning: PF514
"""),
    # DeepSpeedExamples issue 418: DeepSpeed-Chat's config helper hard-codes fp16 for a BLOOMZ model
    textwrap.dedent("""
    # --- main.py
    import argparse

    import deepspeed
    from transformers import AutoModelForCausalLM

    from ds_utils import get_train_ds_config

    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str)
    parser.add_argument("--local_rank", type=int, default=-1)
    args = parser.parse_args()
    ds_config = get_train_ds_config(stage=3)
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config=ds_config)
    # --- ds_utils.py
    def get_train_ds_config(stage=2):
        return {
            "train_batch_size": 32,
            "train_micro_batch_size_per_gpu": 4,
            "zero_optimization": {"stage": stage},
            "fp16": {"enabled": True, "loss_scale_window": 100},
        }
    # --- launch
    deepspeed main.py --model_name_or_path bigscience/bloomz-560m
    # --- expect
    ds_utils.py:6: warning: PF514
"""),
    # gpt-neo-fine-tuning-example issue 7: GPT-Neo 2.7B under a DeepSpeed config with fp16 on
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments

    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("EleutherAI/gpt-neo-2.7B")
    # --- ds_config.json
    {
      "fp16": {
        "enabled": true
      },
      "zero_optimization": {"stage": 3},
      "train_micro_batch_size_per_gpu": "auto"
    }
    # --- launch
    deepspeed train.py --deepspeed ds_config.json --output_dir out --fp16
    # --- expect
    train.py:4: warning: PF514
"""),
]

PF514_GOOD = [
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainingArguments

    (args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-large")
    # --- launch
    python train.py --output_dir out --bf16
"""),
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModel

    model = AutoModel.from_pretrained("bert-base-uncased")
    # --- launch
    python train.py --fp16
"""),
    # the fix of DeepSpeed issue 643: bf16 in the DeepSpeed config (and fp16 explicitly off)
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    from transformers import T5ForConditionalGeneration

    model = T5ForConditionalGeneration.from_pretrained("t5-large")
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config="ds_config.json")
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 4, "fp16": {"enabled": false}, "bf16": {"enabled": true}}
    # --- launch
    deepspeed --num_gpus 1 train.py
"""),
    # GPT-NeoX and Pythia were pretrained in fp16: fp16 fine-tuning is their own format
    textwrap.dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments

    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-1.4b")
    # --- launch
    python train.py --output_dir out --fp16
"""),
    # the fix of DeepSpeedExamples issue 418: the helper's dict switches BLOOMZ to bf16
    textwrap.dedent("""
    # --- main.py
    import argparse

    import deepspeed
    from transformers import AutoModelForCausalLM

    from ds_utils import get_train_ds_config

    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str)
    parser.add_argument("--local_rank", type=int, default=-1)
    args = parser.parse_args()
    ds_config = get_train_ds_config(stage=3)
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(),
                                                   config=ds_config)
    # --- ds_utils.py
    def get_train_ds_config(stage=2):
        return {
            "train_batch_size": 32,
            "train_micro_batch_size_per_gpu": 4,
            "zero_optimization": {"stage": stage},
            "bf16": {"enabled": True},
        }
    # --- launch
    deepspeed main.py --model_name_or_path bigscience/bloomz-560m
"""),
]
