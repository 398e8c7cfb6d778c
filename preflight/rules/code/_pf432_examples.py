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
