"""PF631 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch command)."""

import textwrap

_JOB = textwrap.dedent("""
    # --- train_long.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM


    def main(loader):
        accelerator = Accelerator()
        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf", torch_dtype=torch.bfloat16){pin}
        model.config.use_cache = False{enable}
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        model.train()
        for batch in loader:
            loss = model(**batch).loss
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
    # --- ds_config.json
    {{
      "bf16": {{"enabled": true}},
      "zero_optimization": {{"stage": 3}},
      "activation_checkpointing": {{
        "partition_activations": {partition},
        "contiguous_memory_optimization": false,
        "cpu_checkpointing": {cpu}
      }},
      "train_micro_batch_size_per_gpu": 1
    }}
    # --- launch
    accelerate launch --use_deepspeed --deepspeed_config_file ds_config.json --num_processes 8 train_long.py
""")

BAD_EXAMPLES = [
    # DeepSpeed issue 5550: the block is the only checkpointing of a Llama model at long sequence length
    _JOB.format(pin="  # warning: PF631", enable="", partition="true", cpu="true"),
    _JOB.format(pin="  # warning: PF631", enable="", partition="false", cpu="true"),
]

GOOD_EXAMPLES = [
    # the fix: the model's own gradient checkpointing
    _JOB.format(pin="", enable="\n    model.gradient_checkpointing_enable()", partition="true", cpu="true"),
    # tricky-correct: the block is present but turns nothing on
    _JOB.format(pin="", enable="", partition="false", cpu="false"),
    # tricky-correct: a Megatron-style model that calls DeepSpeed's checkpointing API itself
    _JOB.format(pin="", enable="\n    deepspeed.checkpointing.configure(None, deepspeed_config='ds_config.json')",
                partition="true", cpu="true"),
]
