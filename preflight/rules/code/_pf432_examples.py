"""PF432 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF432_BAD = [
    # DSS: the configured learning rate is printed, Adam gets a literal
    textwrap.dedent("""
    import torch
    import yaml


    def main(model, cfg_path="configs/dss.yaml"):
        with open(cfg_path) as f:
            cfg = yaml.safe_load(f)
        lr = cfg["training"]["learning_rate"]
        print("learning rate:", lr)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.001)  # warning: PF432
        return optimizer
"""),
    # haca3 issue 9: CyclicLR's hard-coded bounds override Adam's lr=args.lr
    textwrap.dedent("""
    import argparse

    import torch
    from torch.optim.lr_scheduler import CyclicLR


    class HACA3:
        def __init__(self, networks, lr):
            params = [p for net in networks for p in net.parameters()]
            self.optimizer = torch.optim.Adam(params, lr=lr)
            self.scheduler = CyclicLR(self.optimizer, base_lr=4e-4, max_lr=7e-4, cycle_momentum=False)  # warning: PF432


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--lr", type=float, default=5e-4)
        args = parser.parse_args()
        return HACA3(build_networks(), lr=args.lr)
"""),
]

PF432_GOOD = [
    # the variable reaches the optimizer, or another consumer (a scheduler's max_lr)
    textwrap.dedent("""
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
"""),
    # a literal with no configured value read; a value read after the optimizer is built
    textwrap.dedent("""
    import torch


    def fixed(model):
        return torch.optim.Adam(model.parameters(), lr=1e-3)


    def later(model, cfg):
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        lr = cfg["lr"]
        for group in opt.param_groups:
            group["lr"] = lr
        return opt
"""),
    # the fix (bounds from the configured lr); OpenPCDet's placeholder literal lr under a OneCycle
    # schedule built from the config; a literal lr under another name
    textwrap.dedent("""
    import torch
    from torch.optim.lr_scheduler import CyclicLR, OneCycleLR


    def build(params, lr, cfg):
        opt = torch.optim.Adam(params, lr=lr)
        sched = CyclicLR(opt, base_lr=0.8 * lr, max_lr=1.4 * lr, cycle_momentum=False)
        opt2 = torch.optim.AdamW(params, lr=3e-3)
        sched2 = OneCycleLR(opt2, max_lr=cfg.LR, total_steps=cfg.STEPS)
        base = 0.01
        opt3 = torch.optim.SGD(params, lr=base)
        sched3 = OneCycleLR(opt3, max_lr=0.1, total_steps=1000)
        return sched, sched2, sched3
"""),
    # a LightningModule's own default under OneCycleLR: a nominal lr (torch's OneCycleLR example
    # does the same), not a value the user configured for the run
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch


    class LitModel(pl.LightningModule):
        def __init__(self, learning_rate=1e-3):
            super().__init__()
            self.save_hyperparameters()
            self.learning_rate = learning_rate

        def configure_optimizers(self):
            optimizer = torch.optim.AdamW(self.parameters(), lr=self.learning_rate, weight_decay=1e-2)
            scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-2, total_steps=1000)
            return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}
"""),
]
