"""PF364 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    # --- train.py
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, HfArgumentParser, Trainer, TrainingArguments


    def main():
        (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
        tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-2-13b-hf", padding_side="right")
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-13b-hf", torch_dtype=torch.bfloat16)
        tokenizer.add_special_tokens({{"pad_token": "<pad>"}})
        model.resize_token_embeddings(len(tokenizer))  # {mark}
    {after}
        Trainer(model=model, args=training_args, train_dataset=data).train()
    # --- run.sh
    deepspeed --num_gpus 8 train.py --deepspeed ds_z3.json --output_dir out --bf16 True
    # --- ds_z3.json
    {{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {{"stage": {stage}}}, "bf16": {{"enabled": "auto"}}}}
    # --- requirements.txt
    transformers{spec}
    deepspeed==0.9.2
""")

BAD_EXAMPLES = [
    # transformers issue 26398: 4.33.2 under ZeRO-3 sets config.vocab_size to 0
    _JOB.format(mark="error: PF364", after="", stage=3, spec="==4.33.2"),
    # transformers issue 25977: 4.32.1 resizes Llama's untied LM head to 0 rows
    _JOB.format(mark="error: PF364", after="", stage=3, spec="==4.32.1"),
]

GOOD_EXAMPLES = [
    # the fix of issue 26398 on the same pin: the vocabulary size written back after the resize
    _JOB.format(mark="", after="    model.config.vocab_size = len(tokenizer)", stage=3, spec="==4.33.2"),
    # the fix in the library: 4.34.0 builds the new embedding outside zero.Init (PR 26259)
    _JOB.format(mark="", after="", stage=3, spec="==4.34.0"),
    # tricky: the same pin under ZeRO-2 (parameters are not partitioned)
    _JOB.format(mark="", after="", stage=2, spec="==4.33.2"),
    # tricky: a lower bound may install a fixed release
    _JOB.format(mark="", after="", stage=3, spec=">=4.33.2"),
]
