"""PF432 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

PF432_BAD = [
    # DSS: the configured learning rate is printed, Adam gets a literal
    """
import torch
import yaml


def main(model, cfg_path="configs/dss.yaml"):
    with open(cfg_path) as f:
        cfg = yaml.safe_load(f)
    lr = cfg["training"]["learning_rate"]
    print("learning rate:", lr)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)  # warning: PF432
    return optimizer
""",
]

PF432_GOOD = [
    # the variable reaches the optimizer, or another consumer (a scheduler's max_lr)
    """
import torch


def main(model, cfg):
    lr = cfg["training"]["learning_rate"]
    print(f"learning rate: {lr}")
    return torch.optim.Adam(model.parameters(), lr=lr)


def warmup(model, cfg, steps):
    lr = cfg.optim.lr
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    return opt, sched
""",
    # a literal with no configured value read; a value read after the optimizer is built
    """
import torch


def fixed(model):
    return torch.optim.Adam(model.parameters(), lr=1e-3)


def later(model, cfg):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lr = cfg["lr"]
    for group in opt.param_groups:
        group["lr"] = lr
    return opt
""",
]

PF518_BAD = [
    # Smart Contract Bytecode-to-Code issue 9: gradient_accumulation_steps never reaches the helper
    """
# --- train.py
import yaml
from transformers import TrainingArguments


def create_training_arguments(output_dir, learning_rate=2e-4, per_device_train_batch_size=4,
                              gradient_accumulation_steps=4):
    return TrainingArguments(output_dir=output_dir, learning_rate=learning_rate,
                             per_device_train_batch_size=per_device_train_batch_size,
                             gradient_accumulation_steps=gradient_accumulation_steps)


config = yaml.safe_load(open("config.yaml"))
args = create_training_arguments(output_dir=config["output_dir"], learning_rate=config["learning_rate"],
                                 per_device_train_batch_size=config["per_device_train_batch_size"])
# --- config.yaml
output_dir: out
learning_rate: 0.0002
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
""",
]

PF518_GOOD = [
    # every configured key is passed; a key read elsewhere; a call forwarding a single value
    """
# --- train.py
import yaml


def build(output_dir, learning_rate=2e-4, warmup=0, gradient_accumulation_steps=4):
    return output_dir, learning_rate, warmup, gradient_accumulation_steps


config = yaml.safe_load(open("config.yaml"))
a = build(output_dir=config["output_dir"], learning_rate=config["learning_rate"],
          gradient_accumulation_steps=config["gradient_accumulation_steps"])
b = build(output_dir=config["output_dir"], learning_rate=config["learning_rate"])
print(config.get("warmup"))
c = build(output_dir=config["output_dir"])
# --- config.yaml
output_dir: out
learning_rate: 0.0002
warmup: 10
gradient_accumulation_steps: 8
""",
    """
# --- train.py
def build(output_dir, learning_rate=2e-4, gradient_accumulation_steps=4):
    return output_dir


build(output_dir=cfg["output_dir"], learning_rate=cfg["learning_rate"], **extra)
# --- config.yaml
output_dir: out
learning_rate: 0.0002
gradient_accumulation_steps: 8
""",
]
