"""PF249 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # PixArt-alpha PR 160: a filter() over the parameters feeds the optimizer, then the clipping
    textwrap.dedent("""
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    lora_layers = filter(lambda p: p.requires_grad, transformer.parameters())
    optimizer = torch.optim.AdamW(lora_layers, lr=1e-4)
    transformer, optimizer, loader = accelerator.prepare(transformer, optimizer, loader)
    for step, batch in enumerate(loader):
        loss = transformer(**batch).loss
        accelerator.backward(loss)
        if accelerator.sync_gradients:
            accelerator.clip_grad_norm_(lora_layers, 1.0)  # error: PF249
        optimizer.step()
        optimizer.zero_grad()
    """),
    # pytorch issue 148259: the generator is iterated once, then handed to clip_grad_norm_
    textwrap.dedent("""
    import torch

    params_to_clip = model.parameters()
    for p in params_to_clip:
        print(p.shape)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params_to_clip, 1.0)  # error: PF249
    optimizer.step()
    """),
    # a generator built once, consumed inside the training loop: only the first step is clipped
    textwrap.dedent("""
    import torch

    def train(model, loader, optimizer):
        params = model.parameters()
        for x, y in loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)  # error: PF249
            optimizer.step()
    """),
    # Dive-into-DL issue 101 shape: a generator expression over the parameters, iterated twice
    textwrap.dedent("""
    import torch

    def grad_clipping(model, theta):
        params = (p for p in model.parameters() if p.grad is not None)
        norm = torch.sqrt(sum(torch.sum(p.grad ** 2) for p in params))
        if norm > theta:
            for p in params:  # error: PF249
                p.grad[:] *= theta / norm
    """),
]

GOOD_EXAMPLES = [
    # materialised once
    textwrap.dedent("""
    import torch

    params = list(model.parameters())
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        optimizer.zero_grad()
    """),
    # tricky: the generator is used once, by the optimizer; clipping asks the model again
    textwrap.dedent("""
    import torch

    trainable = filter(lambda p: p.requires_grad, model.parameters())
    optimizer = torch.optim.AdamW(trainable, lr=1e-4)
    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
    """),
    # tricky: two uses in exclusive branches
    textwrap.dedent("""
    import torch

    params = model.parameters()
    if args.optim == "sgd":
        optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)
    else:
        optimizer = torch.optim.Adam(params, lr=1e-3)
    """),
    # tricky: the generator is rebuilt inside the loop that consumes it
    textwrap.dedent("""
    import torch

    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        params = model.parameters()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        optimizer.zero_grad()
    """),
    # tricky: a list comprehension (a list, not a generator), used twice
    textwrap.dedent("""
    import torch

    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(params, lr=1e-3)
    print(sum(p.numel() for p in params))
    """),
    # tricky: the name is only printed after the optimizer takes it
    textwrap.dedent("""
    import torch

    params = model.parameters()
    optimizer = torch.optim.Adam(params, lr=1e-3)
    print(params)
    """),
    # tricky: the first use returns, so the second only runs when the first did not
    textwrap.dedent("""
    import torch

    def configure_optimizers(self):
        params = self.parameters()
        if self.hparams.optimizer == "sgd":
            return torch.optim.SGD(params, lr=self.hparams.lr)
        return torch.optim.Adam(params, lr=self.hparams.lr)
    """),
]
