"""PF253 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # lightning-sam PR 17's shape
    textwrap.dedent("""
    import lightning as L
    import torch


    def main():
        fabric = L.Fabric(accelerator="cuda", devices=4, strategy="ddp", precision="bf16-mixed")
        fabric.launch()
        model = build_model()
        optimizer = torch.optim.Adam(model.parameters(), lr=8e-4)
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
        model, optimizer, scheduler = fabric.setup(model, optimizer, scheduler)  # warning: PF253
        for batch in loader:
            optimizer.zero_grad()
            fabric.backward(model(batch))
            optimizer.step()
            scheduler.step()
"""),
    # a transformers warmup schedule with another name, through self.fabric
    textwrap.dedent("""
    from lightning.fabric import Fabric
    from transformers import get_cosine_schedule_with_warmup


    class Runner:
        def __init__(self, model, optimizer, steps):
            self.fabric = Fabric(precision="16-mixed")
            warm = get_cosine_schedule_with_warmup(optimizer, 500, steps)
            self.model, self.opt, self.warm = self.fabric.setup(model, optimizer, warm)  # warning: PF253
"""),
    # the schedule comes from a helper: its name says what it is
    textwrap.dedent("""
    from lightning.fabric import Fabric

    fabric = Fabric()
    optimizer, lr_scheduler = configure_opt(cfg, model)
    model, optimizer, lr_scheduler = fabric.setup(model, optimizer, lr_scheduler)  # warning: PF253
"""),
]

GOOD_EXAMPLES = [
    # the fix, and the keyword form
    textwrap.dedent("""
    import lightning as L
    import torch

    fabric = L.Fabric(devices=4, strategy="deepspeed")
    optimizer = torch.optim.Adam(model.parameters(), lr=8e-4)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
    model, optimizer = fabric.setup(model, optimizer)
    model2, optimizer2, scheduler2 = fabric.setup(model2, optimizer2, scheduler=scheduler)
"""),
    # tricky: a GAN's two optimizers, and another library's setup given a scheduler
    textwrap.dedent("""
    import torch
    from lightning.fabric import Fabric

    fabric = Fabric()
    opt_g = torch.optim.Adam(gen.parameters())
    opt_d = torch.optim.Adam(disc.parameters())
    gan, opt_g, opt_d = fabric.setup(gan, opt_g, opt_d)
    scheduler = torch.optim.lr_scheduler.StepLR(opt_g, 10)
    trainer.setup(model, scheduler)
"""),
]
