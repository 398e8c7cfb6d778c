"""PF391 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # MS-AMP PR 45: the MNIST example's helper steps the scaler but never updates it
    dedent("""
    import torch


    def train(model, loader, optimizer, scaler):
        for data, target in loader:
            optimizer.zero_grad()
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                loss = torch.nn.functional.nll_loss(model(data), target)
            scaler.scale(loss).backward()
            step(scaler, optimizer)


    def step(scaler, optimizer):
        scaler.step(optimizer)  # error: PF391


    def main(model, loader, optimizer):
        scaler = torch.cuda.amp.GradScaler()
        for epoch in range(10):
            train(model, loader, optimizer, scaler)
    """),
]

GOOD = [
    # the fix
    dedent("""
    import torch


    def train(model, loader, optimizer, scaler):
        for data, target in loader:
            optimizer.zero_grad()
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                loss = torch.nn.functional.nll_loss(model(data), target)
            scaler.scale(loss).backward()
            step(scaler, optimizer)


    def step(scaler, optimizer):
        scaler.step(optimizer)
        scaler.update()


    def main(model, loader, optimizer):
        scaler = torch.cuda.amp.GradScaler()
        for epoch in range(10):
            train(model, loader, optimizer, scaler)
    """),
    # tricky: the helper only steps; the caller updates the scaler under another name
    dedent("""
    import torch


    def apply(amp_scaler, optimizer):
        amp_scaler.step(optimizer)


    def fit(model, loader, optimizer):
        grad_scaler = torch.amp.GradScaler("cuda")
        for batch in loader:
            with torch.autocast("cuda", dtype=torch.float16):
                loss = model(batch).mean()
            grad_scaler.scale(loss).backward()
            apply(grad_scaler, optimizer)
            grad_scaler.update()
            optimizer.zero_grad()
    """),
    # tricky: the scaler is handed to a function of another module, which may update it
    dedent("""
    import torch

    from engine import train_one_epoch


    def helper(scaler, optimizer):
        scaler.step(optimizer)


    def main(model, loader, optimizer, epochs):
        scaler = torch.cuda.amp.GradScaler()
        for epoch in range(epochs):
            train_one_epoch(model, loader, optimizer, scaler, helper)
    """),
]
