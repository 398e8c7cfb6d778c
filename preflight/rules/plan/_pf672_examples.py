"""PF672 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_JOB = dedent("""
    # --- train.py
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


    def main(train_ds):
        (training_args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf")
        Trainer(model=model, args=training_args, train_dataset=train_ds).train()
    # --- ds_zeropp.json
    {{
      "train_micro_batch_size_per_gpu": "auto",
      "bf16": {{"enabled": "auto"}},
      "zero_optimization": {{
        "stage": 3,{keys}
        "overlap_comm": true
      }}
    }}
    # --- requirements.txt
    deepspeed{version}
    # --- launch
    deepspeed --num_gpus 8 train.py --output_dir out --bf16 --deepspeed ds_zeropp.json
    """)

_KEYS = """
        "zero_hpz_partition_size": 8,
        "zero_quantized_weights": true,
        "zero_quantized_gradients": true,"""

PF672_BAD = [
    # DeepSpeed issue 3827: ZeRO++ keys on deepspeed 0.9.5
    _JOB.format(keys=_KEYS, version="==0.9.5") + "# --- expect\nds_zeropp.json:6: error: PF672\n",
]

PF672_GOOD = [
    # the fix: a release with ZeRO++
    _JOB.format(keys=_KEYS, version="==0.10.0"),
    # no ZeRO++ keys on the old release
    _JOB.format(keys="", version="==0.9.5"),
    # tricky: only a lower bound (a newer release installs)
    _JOB.format(keys=_KEYS, version=">=0.9.5"),
]
