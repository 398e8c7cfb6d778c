"""PF248 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # the Stack Overflow shape: a loss computed from argmax/.item(), re-wrapped to silence the autograd error
    textwrap.dedent("""
    import torch

    for x, y in loader:
        optimizer.zero_grad()
        pred = model(x).argmax(dim=1).float()
        loss = criterion(pred, y.float())
        loss = torch.tensor(loss.item(), requires_grad=True)  # error: PF248
        loss.backward()
        optimizer.step()
    """),
    # `loss.requires_grad = True` after a loss computed from numpy values (ReLeaSE issue 39 shape)
    textwrap.dedent("""
    import numpy as np
    import torch

    def train_step(model, batch, optimizer):
        scores = model(batch).detach().cpu().numpy()
        loss = torch.from_numpy(np.mean((scores - batch.target) ** 2, keepdims=True))
        loss.requires_grad = True  # error: PF248
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """),
    # the old Variable spelling, back-propagated through an AMP scaler
    textwrap.dedent("""
    import torch
    from torch.autograd import Variable

    for batch in loader:
        optimizer.zero_grad()
        with torch.no_grad():
            out = model(batch["x"])
        loss = Variable(criterion(out, batch["y"]), requires_grad=True)  # error: PF248
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    """),
    # a GAN discriminator loss kept on self (an attribute, not a local name)
    textwrap.dedent("""
    import torch


    class GAN:
        def step(self, real_out, fake_out, real, fake):
            self.d_loss = self.criterion(real_out.detach().round(), real)
            self.d_loss.requires_grad = True  # error: PF248
            self.optimizer_D.zero_grad()
            self.d_loss.backward()
            self.optimizer_D.step()
    """),
    # a Lightning training_step that returns the re-grafted loss
    textwrap.dedent("""
    import torch
    import lightning as L


    class Model(L.LightningModule):
        def training_step(self, batch, batch_idx):
            logits = self(batch["x"])
            acc_loss = 1.0 - (logits.argmax(-1) == batch["y"]).float().mean()
            acc_loss.requires_grad_()  # error: PF248
            return acc_loss
    """),
    # detached, then made to require grad (an Accelerate loop)
    textwrap.dedent("""
    import torch

    for batch in loader:
        with accelerator.accumulate(model):
            logits = model(**batch).logits
            loss = reward_fn(logits.argmax(-1), batch["labels"])
            loss = loss.detach().requires_grad_()  # error: PF248
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
    """),
    # a Trainer subclass whose compute_loss re-grafts the loss it returns
    textwrap.dedent("""
    import torch
    from transformers import Trainer


    class RankTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
            outputs = model(**inputs)
            ranks = outputs.logits.argsort(dim=-1).float()
            loss = torch.tensor(spearman_loss(ranks, inputs["labels"]), requires_grad=True)  # error: PF248
            return (loss, outputs) if return_outputs else loss
    """),
]

GOOD_EXAMPLES = [
    # the loss stays in the graph
    textwrap.dedent("""
    import torch

    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
    """),
    # tricky: an input made to require grad (gradient penalty), the loss is a different tensor
    textwrap.dedent("""
    import torch

    for real in loader:
        real.requires_grad_(True)
        score = critic(real)
        grad = torch.autograd.grad(score.sum(), real, create_graph=True)[0]
        loss = ((grad.norm(2, dim=1) - 1) ** 2).mean()
        loss.backward()
        optimizer.step()
    """),
    # tricky: a literal starting value that is then re-bound to a graph-connected sum
    textwrap.dedent("""
    import torch

    loss = torch.tensor(0.0, requires_grad=True, device="cuda")
    for head, target in zip(heads, targets):
        loss = loss + criterion(head(features), target)
    loss.backward()
    """),
    # tricky: a parameter tensor optimised directly (its loss is a different name)
    textwrap.dedent("""
    import torch

    w = torch.tensor(init_weights, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    for x, y in data:
        loss = ((x @ w - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    """),
    # tricky: the forced tensor is bound again before the backward
    textwrap.dedent("""
    import torch

    loss = torch.tensor(float(prev_loss), requires_grad=True)
    log(loss)
    loss = criterion(model(x), y)
    loss.backward()
    """),
    # tricky: a logger test's stand-in loss (Lightning's ClearML logger test shape)
    textwrap.dedent("""
    import torch
    from lightning.pytorch.demos.boring_classes import BoringModel


    class CustomModel(BoringModel):
        def training_step(self, batch, batch_idx):
            loss = torch.randn(1)
            loss.requires_grad = True
            self.logger.log_metrics({"loss": loss})
            return loss
    """),
]
