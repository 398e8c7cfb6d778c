"""PF268 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# FastChat's fine-tuning entry point run on a V100 node (lm-sys/FastChat issue 399's shape)
_TRAIN = dedent("""
    # --- train.py
    from dataclasses import dataclass, field

    import transformers


    @dataclass
    class ModelArguments:
        model_name_or_path: str = field(default="facebook/opt-125m")


    def train():
        parser = transformers.HfArgumentParser((ModelArguments, transformers.TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
        trainer = transformers.Trainer(model=model, args=training_args)
        trainer.train()


    if __name__ == "__main__":
        train()
    # --- launch.sh
    #!/bin/bash
    #SBATCH --nodes=1
    {gres}
    torchrun --nproc_per_node=8 train.py --output_dir out {precision}
    # --- launch
    torchrun --nproc_per_node=8 train.py --output_dir out {precision}
    """)

# a Fabric script (Lightning-AI/litgpt PR 416's shape)
_FABRIC = dedent("""
    # --- finetune.py
    import lightning as L
    import torch


    def setup(devices: int = 4):
        fabric = L.Fabric(devices=devices, precision={precision}, strategy="ddp")
        fabric.launch(main)


    def main(fabric):
        model = torch.nn.Linear(8, 2)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
        model, optimizer = fabric.setup(model, optimizer)
    # --- launch.sh
    #!/bin/bash
    #SBATCH --nodes=1
    #SBATCH --gres=gpu:{gpu}:4{mark}
    srun python finetune.py
    # --- launch
    python finetune.py
    """)

PF268_BAD = [
    _TRAIN.format(gres="#SBATCH --gres=gpu:v100:8  # error: PF268", precision="--bf16 True --tf32 True"),
    _FABRIC.format(precision='"bf16-true"', gpu="t4", mark="  # error: PF268"),
]

PF268_GOOD = [
    # the fix: fp16 on the V100 node
    _TRAIN.format(gres="#SBATCH --gres=gpu:v100:8", precision="--fp16 True --tf32 False"),
    # tricky: bf16 on GPUs that have it
    _TRAIN.format(gres="#SBATCH --gres=gpu:a100:8", precision="--bf16 True --tf32 True"),
    # tricky: no GPU type requested: the cluster's default nodes are unknown
    _TRAIN.format(gres="#SBATCH --gres=gpu:8", precision="--bf16 True"),
    # tricky: the precision follows what the GPU supports
    _FABRIC.format(precision='"bf16-true" if torch.cuda.is_bf16_supported() else "16-true"', gpu="v100", mark=""),
]
