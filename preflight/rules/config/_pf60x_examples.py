"""PF601-PF603 examples: small projects (``# --- <path>`` sections); bad ones must fire,
good ones stay silent."""

from __future__ import annotations

PF601_BAD = [
    # a typo in a DeepSpeed block validated by pydantic (extra="forbid"): DeepSpeed raises
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 3, "overlap_com": true}
}
# --- expect
ds_config.json:3: error: PF601
""",
    # an unknown top-level key of an accelerate config: ClusterConfig.from_yaml_file raises
    """
# --- accelerate.yaml
compute_environment: LOCAL_MACHINE
distributed_type: MULTI_GPU
num_machine: 1  # error: PF601
num_processes: 8
mixed_precision: bf16
""",
    # a LightningCLI-shaped file (model: beside trainer:): Trainer() rejects batch_size
    """
# --- config.yaml
model:
  num_classes: 10
trainer:
  max_epochs: 200
  batch_size: 128  # error: PF601
""",
]

PF601_GOOD = [
    # VISSL PR 368 shape: a Hydra group file (`# @package _global_`) of a plain PyTorch loop; its
    # trainer: node is the project's own settings, not Lightning's Trainer()
    """
# --- conf/dataset/cifar10.yaml
# @package _global_
model:
  num_classes: 10
trainer:
  max_epochs: 200
  batch_size: 128
""",
    """
# --- ds_config.json
{
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 3, "overlap_comm": true}
}
""",
    # keys of the script's own dataclasses are fine in an HfArgumentParser file
    """
# --- train.py
from dataclasses import dataclass, field
from transformers import HfArgumentParser, TrainingArguments

@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="gpt2")

parser = HfArgumentParser((ModelArguments, TrainingArguments))
model_args, training_args = parser.parse_yaml_file("args.yaml")
# --- args.yaml
output_dir: out
per_device_train_batch_size: 4
gradient_accumulation_steps: 2
model_name_or_path: gpt2
""",
]

PF602_BAD = [
    """
# --- ds_config.json
{"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 4}}
# --- expect
ds_config.json:1: error: PF602
""",
    """
# --- args.yaml
output_dir: out
per_device_train_batch_size: 4
optim: adamw_torh  # error: PF602
""",
]

PF602_GOOD = [
    # "auto" is filled by the HF Trainer / Accelerate
    """
# --- ds_config.json
{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}
""",
    """
# --- args.yaml
output_dir: out
per_device_train_batch_size: 4
optim: adamw_torch
""",
]

PF603_BAD = [
    # PyYAML (HfArgumentParser.parse_yaml_file) reads 1e-4 as a string
    """
# --- args.yaml
output_dir: out
per_device_train_batch_size: 4
learning_rate: 1e-4  # error: PF603
""",
    # `no` is the boolean false in YAML 1.1; accelerate expects the string "no"
    """
# --- accelerate.yaml
compute_environment: LOCAL_MACHINE
distributed_type: MULTI_GPU
num_processes: 2
mixed_precision: no  # error: PF603
""",
]

PF603_GOOD = [
    """
# --- args.yaml
output_dir: out
per_device_train_batch_size: 4
learning_rate: 1.0e-4
""",
    """
# --- accelerate.yaml
compute_environment: LOCAL_MACHINE
distributed_type: MULTI_GPU
num_processes: 2
mixed_precision: 'no'
""",
]
