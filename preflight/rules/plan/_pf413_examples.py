"""PF413 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

# FAI-RL issue 66: the load and the TrainingArguments each in a helper, called in that order
_HELPERS = textwrap.dedent("""
    # --- sft.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def setup_model():
        return AutoModelForCausalLM.from_pretrained("Qwen/Qwen3-30B-A3B"){pin}


    def setup_training_args():
        return TrainingArguments(output_dir="out", deepspeed="ds_zero3.json", bf16=True)


    {first}
    {second}
    Trainer(model=model, args=args, train_dataset=ds).train()
    # --- ds_zero3.json
    {{"zero_optimization": {{"stage": 3}}, "train_micro_batch_size_per_gpu": "auto"}}
    """)

PF413_BAD = [
    textwrap.dedent("""
        # --- train.py
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-70B")  # error: PF413
        args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json", bf16=True)
        Trainer(model=model, args=args, train_dataset=ds).train()
        # --- ds_zero3.json
        {
          "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}},
          "bf16": {"enabled": "auto"},
          "train_micro_batch_size_per_gpu": "auto"
        }
        """),
    _HELPERS.format(pin="  # error: PF413", first="model = setup_model()", second="args = setup_training_args()"),
]

PF413_GOOD = [
    textwrap.dedent("""
        # --- train.py
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json", bf16=True)
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-70B")
        Trainer(model=model, args=args, train_dataset=ds).train()
        # --- ds_zero3.json
        {"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": "auto"}
        """),
    # ZeRO-2 keeps full weights per rank anyway; a model built in a helper
    textwrap.dedent("""
        # --- train.py
        from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

        def build():
            return AutoModelForCausalLM.from_pretrained("gpt2")

        model = AutoModelForCausalLM.from_pretrained("gpt2")
        args = TrainingArguments(output_dir="out", deepspeed="ds.json")
        # --- ds.json
        {"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": 4}
        """),
    # the fix: the training arguments built first
    _HELPERS.format(pin="", first="args = setup_training_args()", second="model = setup_model()"),
]
