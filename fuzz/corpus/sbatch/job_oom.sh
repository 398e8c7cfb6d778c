#!/bin/bash
#SBATCH --job-name=finetune-7b
#SBATCH --partition=a100
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:a100:1
#SBATCH --output=finetune-7b-%j.out

# Full fine-tuning of Llama-2-7B on one GPU: AdamW states alone are 4x the weights.
python3 finetune.py --dry-run
