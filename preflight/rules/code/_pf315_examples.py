"""PF315 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # Lipreading-PyTorch issue 7: the per-epoch method of the trainer builds a new Adam on every call
    dedent("""
    from torch import nn, optim


    class Trainer:
        def __init__(self, loader, lr):
            self.loader, self.lr = loader, lr

        def epoch(self, model, epoch):
            optimizer = optim.Adam(model.parameters(), lr=self.lr)  # warning: PF315
            criterion = nn.CrossEntropyLoss()
            for frames, labels in self.loader:
                loss = criterion(model(frames), labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    """),
    # the optimizer built at the top of the epoch loop, momentum SGD, stepped through a GradScaler
    dedent("""
    import torch


    def fit(model, loader, epochs):
        scaler = torch.cuda.amp.GradScaler()
        for epoch in range(epochs):
            opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)  # warning: PF315
            for x, y in loader:
                with torch.autocast("cuda"):
                    loss = torch.nn.functional.cross_entropy(model(x), y)
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()
                opt.zero_grad()
    """),
]

GOOD = [
    # the fix: built once in __init__, reused by every epoch
    dedent("""
    from torch import nn, optim


    class Trainer:
        def __init__(self, loader, model, lr):
            self.loader = loader
            self.optimizer = optim.Adam(model.parameters(), lr=lr)

        def epoch(self, model, epoch):
            criterion = nn.CrossEntropyLoss()
            for frames, labels in self.loader:
                loss = criterion(model(frames), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
    """),
    # tricky-correct: rebuilt on purpose when the backbone is unfrozen (gated by an if), plain SGD
    # rebuilt every epoch (no state), and a function that loops over the epochs itself
    dedent("""
    import torch


    def fit(model, loader, epochs, unfreeze_at):
        opt = torch.optim.Adam(model.head.parameters(), lr=1e-3)
        for epoch in range(epochs):
            if epoch == unfreeze_at:
                opt = torch.optim.Adam(model.parameters(), lr=1e-4)
            plain = torch.optim.SGD(model.parameters(), lr=0.01)
            for x, y in loader:
                torch.nn.functional.cross_entropy(model(x), y).backward()
                opt.step()
                plain.step()
                opt.zero_grad()
                plain.zero_grad()


    def train_epochs(model, loader, epochs):
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for epoch in range(epochs):
            for x, y in loader:
                torch.nn.functional.cross_entropy(model(x), y).backward()
                opt.step()
                opt.zero_grad()
    """),
    # tricky-correct: a per-epoch function that restores the optimizer state it rebuilds
    dedent("""
    import torch


    def train_epoch(model, loader, epoch, state):
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        opt.load_state_dict(state)
        for x, y in loader:
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
            opt.zero_grad()
        return opt.state_dict()
    """),
]
