"""PF630 examples: small projects (``# --- <path>`` sections); bad ones pin their finding's line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_ZERO3 = """
# --- ds_zero3.json
{"zero_optimization": {"stage": 3}, "bf16": {"enabled": "auto"},
 "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto"}
"""
_ZERO2 = """
# --- ds_zero2.json
{"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": "auto"}
"""

PF630_BAD = [
    # accelerate issue 2543's shape: a 32B model meant to be split, ZeRO-3 already on
    textwrap.dedent("""
    # --- sft.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def main():
        args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json", bf16=True)
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-32B", device_map="auto")  # error: PF630
        Trainer(model=model, args=args, train_dataset=data).train()


    main()
""") + _ZERO3,
]

PF630_GOOD = [
    # the fix: no device map, ZeRO-3 partitions the model
    textwrap.dedent("""
    # --- sft.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def main():
        args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json", bf16=True)
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-32B")
        Trainer(model=model, args=args, train_dataset=data).train()


    main()
""") + _ZERO3,
    # ZeRO-2 does not refuse a device map
    textwrap.dedent("""
    # --- sft.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds_zero2.json")
    model = AutoModelForCausalLM.from_pretrained("gpt2", device_map={"": 0})
    Trainer(model=model, args=args, train_dataset=data).train()
""") + _ZERO2,
    # tricky: an explicit device_map=None, the integration's own default
    textwrap.dedent("""
    # --- sft.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


    def main():
        args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json")
        model = AutoModelForCausalLM.from_pretrained("gpt2", device_map=None)
        Trainer(model=model, args=args, train_dataset=data).train()


    main()
""") + _ZERO3,
]
