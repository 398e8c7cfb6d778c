"""PF688 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line (the launched script's first line when no launch script
gave the command), good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# an HF Trainer job under a SLURM allocation (DeepSpeed issue 1331's shape)
_JOB = dedent("""
    # --- mycode.py
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments{expect}

    model = AutoModelForCausalLM.from_pretrained("EleutherAI/gpt-neo-125m")
    args = TrainingArguments(output_dir="out", per_device_train_batch_size=4, deepspeed="ds_config.json")
    trainer = Trainer(model=model, args=args, train_dataset=load_corpus())
    trainer.train()
    # --- ds_config.json
    {{"zero_optimization": {{"stage": 2}}, "train_micro_batch_size_per_gpu": "auto",
     "gradient_accumulation_steps": "auto", "train_batch_size": "auto"}}
    # --- train.sbatch
    #!/bin/bash
    {sbatch}    {assign}{launch}
    # --- launch
    {launch}
    """)

_INCLUDE = "deepspeed --include localhost:$CUDA_VISIBLE_DEVICES mycode.py"
_EXPECT = "  # error: PF688"

PF688_BAD = [
    _JOB.format(sbatch="#SBATCH --nodes=1\n#SBATCH --gres=gpu:2\n", assign="", launch=_INCLUDE, expect=_EXPECT),
    _JOB.format(sbatch="#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\n", assign="",
                launch="deepspeed -i localhost:${SLURM_JOB_GPUS} mycode.py", expect=_EXPECT),
]

PF688_GOOD = [
    # the fix
    _JOB.format(sbatch="#SBATCH --nodes=1\n#SBATCH --gres=gpu:2\n", assign="", launch="deepspeed --num_gpus 2 mycode.py",
                expect=""),
    # tricky: the script sets the variable itself (a list it chose)
    _JOB.format(sbatch="#SBATCH --nodes=1\n", assign="CUDA_VISIBLE_DEVICES=2,3\n", launch=_INCLUDE, expect=""),
    # tricky: no scheduler, nothing exported: the caller's environment is unknown
    _JOB.format(sbatch="", assign="", launch=_INCLUDE, expect=""),
    # tricky: literal ids, not the scheduler's variable
    _JOB.format(sbatch="#SBATCH --nodes=1\n#SBATCH --gres=gpu:2\n", assign="",
                launch="deepspeed --include localhost:0,1 mycode.py", expect=""),
]
