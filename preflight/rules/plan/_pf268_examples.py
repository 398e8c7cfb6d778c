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

# LMFlow's fine-tuning entry point (OptimalScale/LMFlow issue 88's shape): its TrainingArguments class comes
# from the lmflow package, which preflight does not read, so only the launch line says bf16
_PIPELINE = dedent("""
    # --- examples/finetune.py
    from transformers import HfArgumentParser

    from lmflow.args import AutoArguments, DatasetArguments, ModelArguments


    def main():
        PipelineArguments = AutoArguments.get_pipeline_args_class("finetuner")
        parser = HfArgumentParser((ModelArguments, DatasetArguments, PipelineArguments))
        model_args, data_args, pipeline_args = parser.parse_args_into_dataclasses()


    if __name__ == "__main__":
        main()
    # --- run_finetune.sh
    #!/bin/bash
    #SBATCH --gres=gpu:{gpu}:2{mark}
    deepspeed --num_gpus 2 examples/finetune.py --output_dir out --do_train {precision}
    # --- launch
    deepspeed --num_gpus 2 examples/finetune.py --output_dir out --do_train {precision}
    """)

# kohya-ss LoRA training launched by accelerate on a Colab T4 (Linaqruf/kohya-trainer issue 246's shape): the
# launch script's comment names the GPU, the launch line asks for bf16
_COLAB = dedent("""
    # --- train_network.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    network = torch.nn.Linear(8, 2)
    optimizer = torch.optim.AdamW(network.parameters(), lr=1e-4)
    network, optimizer = accelerator.prepare(network, optimizer)
    # --- train_lora.sh
    #!/bin/bash
    {comment}
    accelerate launch --num_cpu_threads_per_process 1 --mixed_precision {precision} train_network.py --network_dim=32
    # --- launch
    accelerate launch --num_cpu_threads_per_process 1 --mixed_precision {precision} train_network.py --network_dim=32
    """)

PF268_BAD = [
    _PIPELINE.format(gpu="2080ti", mark="  # error: PF268", precision="--bf16"),
    _TRAIN.format(gres="#SBATCH --gres=gpu:v100:8  # error: PF268", precision="--bf16 True --tf32 True"),
    _FABRIC.format(precision='"bf16-true"', gpu="t4", mark="  # error: PF268"),
    _COLAB.format(comment="# Colab runtime: NVIDIA T4 (16 GB)  # error: PF268", precision="bf16"),
    _COLAB.format(comment="# node: 4x V100 (32 GB)  # error: PF268", precision="bf16"),
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
    # the LMFlow fix: --fp16 on the RTX 2080 Ti node
    _PIPELINE.format(gpu="2080ti", mark="", precision="--fp16"),
    # tricky: the switch turned off on the line; bf16 on an A100 node
    _PIPELINE.format(gpu="2080ti", mark="", precision="--bf16 False --fp16"),
    _PIPELINE.format(gpu="a100", mark="", precision="--bf16"),
    # the Colab fix: fp16 on the T4
    _COLAB.format(comment="# Colab runtime: NVIDIA T4 (16 GB) -- no bf16 on this GPU, train in fp16", precision="fp16"),
    # tricky: the comment names a GPU with bf16
    _COLAB.format(comment="# Colab runtime: NVIDIA A100 (40 GB)", precision="bf16"),
    # tricky: the comments name two GPU models (which one runs is not said)
    _COLAB.format(comment="# runs on the T4 runtime; the A100 runtime is faster", precision="bf16"),
    # tricky: a comment that hedges about precision on the GPU it names
    _COLAB.format(comment="# on a T4 use --mixed_precision fp16 instead", precision="bf16"),
    _COLAB.format(comment="# tested on V100", precision="bf16"),
    _COLAB.format(comment="# the paper trained on 8 V100s", precision="bf16"),
]
