"""PF247 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # the reports' loop: every training call written without parentheses
    textwrap.dedent("""
    import torch

    model = build_model().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = torch.nn.MSELoss()
    for epoch in range(100):
        optimizer.zero_grad  # error: PF247
        loss = criterion(model(inputs), targets)
        loss.backward  # error: PF247
        optimizer.step  # error: PF247
    """),
    # evaluation pass that never switches the model to eval mode, and a schedule never stepped
    textwrap.dedent("""
    import torch

    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
        scheduler.step  # error: PF247
        model.eval  # error: PF247
        with torch.no_grad():
            for x, y in val_loader:
                correct += (model(x).argmax(1) == y).sum().item()
    """),
    # a trainer class: self.model.train after its evaluation pass put the model in eval mode
    textwrap.dedent("""
    import torch


    class Trainer:
        def train_epoch(self):
            self.model.train  # error: PF247
            for batch in self.loader:
                with torch.autocast("cuda"):
                    loss = self.model(**batch).loss
                self.scaler.scale(loss).backward()
                self.scaler.step(self.optimizer)
                self.scaler.update()
                self.optimizer.zero_grad()
    """),
    # a Hugging Face Trainer that is never run, and a barrier that never waits
    textwrap.dedent("""
    import torch
    from transformers import Trainer

    trainer = Trainer(model=model, args=args, train_dataset=train_ds)
    trainer.train  # error: PF247
    if trainer.is_world_process_zero():
        trainer.save_model(out_dir)
    torch.distributed.barrier  # error: PF247
    """),
]

GOOD_EXAMPLES = [
    # the calls, with parentheses
    textwrap.dedent("""
    import torch

    for epoch in range(100):
        model.train()
        optimizer.zero_grad()
        loss = criterion(model(inputs), targets)
        loss.backward()
        optimizer.step()
        scheduler.step()
        model.eval()
    """),
    # tricky: the bound method is kept or passed on, not discarded
    textwrap.dedent("""
    import torch

    step_fn = optimizer.step
    closure_step = lambda: optimizer.step(closure)
    hooks = [model.train, model.eval]
    mode = model.eval if evaluating else model.train
    mode()
    step_fn()
    """),
    # tricky: a bare `.update` on something that is not a scaler (a dict, a config, a progress bar)
    textwrap.dedent("""
    import torch

    for batch in loader:
        stats.update
        loss = model(batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    """),
    # tricky: a file that does not use torch at all (a gym loop, say)
    textwrap.dedent("""
    import gym

    env = gym.make("CartPole-v1")
    env.step
    """),
    # tricky: a docstring-like expression and an attribute read in a condition
    textwrap.dedent("""
    import torch

    if model.training:
        model.eval()
    print(optimizer.step)
    """),
    # tricky: an exported notebook cell that displays a data split and a setting
    textwrap.dedent("""
    import torch
    from torchvision import datasets

    # In[3]:
    mnist = datasets.MNIST("data", download=True)
    mnist.train
    args.eval
    """),
]
