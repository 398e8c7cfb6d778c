"""PF413 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

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
]
