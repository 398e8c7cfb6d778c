"""PF348 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- train_chat.py
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, bf16=True, deepspeed="{ds}")
    tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
    tokenizer.add_special_tokens({{"pad_token": "<pad>", "additional_special_tokens": ["<|user|>", "<|bot|>"]}})
    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
    model.resize_token_embeddings(len(tokenizer))  # {pin}
    Trainer(model=model, args=args, train_dataset=data).train()
    # --- ds_zero3.json
    {{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {{"stage": 3}}, "bf16": {{"enabled": "auto"}}}}
    # --- requirements.txt
    transformers{spec}
    deepspeed==0.10.0
""")

BAD_EXAMPLES = [
    # transformers issue 25241: 4.31.0, ZeRO-3
    _JOB.format(ds="ds_zero3.json", pin="error: PF348", spec="==4.31.0"),
]

GOOD_EXAMPLES = [
    # the fix: a release with PR 25394 (4.34.0: 4.32.0-4.33.3 have another ZeRO-3 resize bug, PF364)
    _JOB.format(ds="ds_zero3.json", pin="", spec="==4.34.0"),
    # tricky: the same pin under ZeRO-2 (parameters are not partitioned)
    _JOB.format(ds="ds_zero3.json", pin="", spec="==4.31.0").replace('"stage": 3', '"stage": 2'),
    # tricky: a lower bound may install a fixed release
    _JOB.format(ds="ds_zero3.json", pin="", spec=">=4.31.0"),
]
