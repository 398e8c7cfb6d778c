"""What `preflight check --fix --unsafe-fixes` makes of each bad example of PF108 and PF109, in the
order of the bad examples, pin comments removed (None: that example offers no fix). The
meta-test applies every fix the rule offers to the example and compares the result with this
text, character for character."""

from __future__ import annotations

import textwrap

PF108_FIXED = [
    # bad example 0 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn

    model = nn.Linear(10, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    accum_steps = 4
    for i, (x, y) in enumerate(loader):
        loss = nn.functional.mse_loss(model(x), y)
        (loss / accum_steps).backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
"""),
    # bad example 1 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn


    class Trainer:
        def __init__(self, model, accum):
            self.model = model
            self.accum = accum
            self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
            self.scaler = torch.cuda.amp.GradScaler()

        def fit(self, loader):
            for step, (x, y) in enumerate(loader):
                with torch.autocast("cuda"):
                    loss = nn.functional.cross_entropy(self.model(x), y)
                self.scaler.scale(loss / self.accum).backward()
                if (step + 1) % self.accum == 0:
                    self.scaler.step(self.opt)
                    self.scaler.update()
                    self.opt.zero_grad()


    Trainer(nn.Linear(8, 2), 8).fit(loader)
"""),
    # bad example 2 (safe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from lightning.fabric import Fabric

    fabric = Fabric()
    model = nn.Linear(10, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model, opt = fabric.setup(model, opt)
    for i, (x, y) in enumerate(loader):
        loss = (model(x) - y).pow(2).mean()
        fabric.backward(loss / 8)
        if i % 8 == 0:
            opt.step()
            opt.zero_grad()
"""),
    # bad example 3 (safe fix)
    textwrap.dedent("""\
    import torch

    from model import GPT

    model = GPT()
    optimizer = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95), "cuda")
    scaler = torch.cuda.amp.GradScaler()
    while True:
        for micro_step in range(gradient_accumulation_steps):
            logits, loss = model(X, Y)
            X, Y = get_batch("train")
            scaler.scale(loss / gradient_accumulation_steps).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
"""),
    # bad example 4 (neural_sp's counter window)
    textwrap.dedent("""\
    import torch


    def train_one_epoch(model, optimizer, loader, accum_grad_n_steps):
        accum_n_steps = 0
        optimizer.zero_grad()
        for batch in loader:
            loss = model(batch)
            accum_n_steps += 1
            (loss / accum_grad_n_steps).backward()
            if accum_n_steps >= accum_grad_n_steps:
                optimizer.step()
                optimizer.zero_grad()
                accum_n_steps = 0
"""),
    # bad example 5 (Lightning manual optimization)
    textwrap.dedent("""\
    import pytorch_lightning as pl
    import torch


    class GenModule(pl.LightningModule):
        def __init__(self, model, accumulate=32):
            super().__init__()
            self.automatic_optimization = False
            self.model = model
            self.accumulate = accumulate

        def gen_helper(self, batch):
            return self.model(**batch).loss

        def training_step(self, batch, batch_idx):
            opt = self.optimizers()
            loss = self.gen_helper(batch)
            self.manual_backward(loss / self.accumulate)
            if (batch_idx + 1) % self.accumulate == 0:
                opt.step()
                opt.zero_grad()

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-5)
"""),
]

PF109_FIXED = [
    # bad example 0 (unsafe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from accelerate import Accelerator

    accelerator = Accelerator(gradient_accumulation_steps=8)
    model = nn.Linear(10, 1)
    opt = torch.optim.AdamW(model.parameters())
    model, opt, loader = accelerator.prepare(model, opt, loader)
    for x, y in loader:
        with accelerator.accumulate(model):
            loss = nn.functional.mse_loss(model(x), y)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
"""),
    # bad example 1 (unsafe fix)
    textwrap.dedent("""\
    import torch
    import torch.nn as nn
    from accelerate import Accelerator


    def train(accelerator, model, opt, loader, args):
        for x, y in loader:
            with accelerator.accumulate(model):
                loss = model(x).sum()
                accelerator.backward(loss)
                opt.step()
                opt.zero_grad()


    def main(args):
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps)
        model = nn.Linear(10, 1)
        opt = torch.optim.AdamW(model.parameters())
        train(accelerator, model, opt, loader, args)
"""),
    # bad example 2 (safe fix)
    textwrap.dedent("""\
    import lightning as L
    import torch.nn as nn


    class Model(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = nn.Linear(10, 1)

        def training_step(self, batch, batch_idx):
            x, y = batch
            loss = nn.functional.mse_loss(self.net(x), y)
            return loss
"""),
]
