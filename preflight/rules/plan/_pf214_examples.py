"""PF214 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_JOB = dedent("""
    # --- sft.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


    def main(train_ds, collator):
        (training_args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
        model = AutoModelForCausalLM.from_pretrained("bigscience/bloomz-1b7")
        trainer = Trainer(model=model, args=training_args, train_dataset=train_ds, data_collator=collator)
        trainer.train()
    # --- ds_config.json
    {{
      "bf16": {{"enabled": "auto"}},
      "zero_optimization": {{"stage": 2}},
      "optimizer": {{
        "type": "AdamW",
        "params": {{"lr": "auto", "betas": "auto", "eps": "auto", "weight_decay": "auto"}}
      }},{scheduler}
      "gradient_accumulation_steps": "auto",
      "train_micro_batch_size_per_gpu": "auto",
      "train_batch_size": "auto"
    }}
    # --- requirements.txt
    transformers{version}
    # --- launch
    deepspeed --num_gpus 4 sft.py --output_dir out --lr_scheduler_type cosine --bf16 --deepspeed ds_config.json
    """)
_EXPECT = "# --- expect\nds_config.json:4: error: PF214\n"

_SCHEDULER = """
      "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": "auto", "total_num_steps": "auto"}},"""

PF214_BAD = [
    # transformers issue 24359: 4.30 and a DeepSpeed optimizer without a scheduler
    _JOB.format(scheduler="", version="==4.30.2") + _EXPECT,
]

PF214_GOOD = [
    # the fix of 24359: a scheduler block with "auto" values
    _JOB.format(scheduler=_SCHEDULER, version="==4.30.2"),
    # tricky: a transformers release that pairs the DeepSpeed optimizer with the Trainer's scheduler
    _JOB.format(scheduler="", version="==4.36.2"),
    # tricky: only a lower bound (a newer transformers is installed)
    _JOB.format(scheduler="", version=">=4.28"),
]
