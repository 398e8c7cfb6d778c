#!/bin/bash
#SBATCH --job-name=finetune-gpt2
#SBATCH --partition=a100
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:a100:1
#SBATCH --output=finetune-gpt2-%j.out

echo "job $SLURM_JOB_ID on $SLURMD_NODENAME with $SLURM_GPUS_ON_NODE GPU(s)"
python3 finetune_small.py --dry-run
