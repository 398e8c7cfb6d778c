"""PF431 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF431_BAD = [
    # ultralytics PR 11217
    textwrap.dedent("""
    import torch


    def train(model, train_loader, optimizer, scaler, epochs, accumulate=32):
        nb = len(train_loader)
        last_opt_step = -1
        for epoch in range(epochs):
            model.train()
            optimizer.zero_grad()  # warning: PF431
            for i, batch in enumerate(train_loader):
                ni = i + nb * epoch
                scaler.scale(model(batch)).backward()
                if ni - last_opt_step >= accumulate:
                    scaler.step(optimizer)
                    scaler.update()
                    optimizer.zero_grad()
                    last_opt_step = ni
"""),
]

PF431_GOOD = [
    # the fix: zero_grad once before the epoch loop
    """
def train(model, train_loader, optimizer, epochs, accumulate=32):
    nb = len(train_loader)
    last_opt_step = -1
    optimizer.zero_grad()
    for epoch in range(epochs):
        for i, batch in enumerate(train_loader):
            ni = i + nb * epoch
            model(batch).backward()
            if ni - last_opt_step >= accumulate:
                optimizer.step()
                optimizer.zero_grad()
                last_opt_step = ni
""",
    # the window restarts every epoch (batch index), or the counter is reset at the epoch start
    """
def train(model, loader, optimizer, epochs, accum=4):
    for epoch in range(epochs):
        optimizer.zero_grad()
        for step, batch in enumerate(loader):
            (model(batch) / accum).backward()
            if (step + 1) % accum == 0:
                optimizer.step()
                optimizer.zero_grad()


def reset(model, loader, optimizer, epochs, accum=4):
    count = 0
    for epoch in range(epochs):
        optimizer.zero_grad()
        count = 0
        for batch in loader:
            (model(batch) / accum).backward()
            count += 1
            if count >= accum:
                optimizer.step()
                optimizer.zero_grad()
                count = 0
""",
]
