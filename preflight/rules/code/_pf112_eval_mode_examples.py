"""PF112 examples for a forward that applies its activation only in eval mode (det131; wolny/pytorch-3dunet
issue 45). Spliced into ``_pf112_examples.PF112_BAD`` / ``PF112_GOOD`` at their original places, so the examples'
order (and index) is unchanged (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

import textwrap

EVAL_MODE_BAD = [
    # det131, wolny/pytorch-3dunet issue 45: the forward applies its final Softmax only when not training, and
    # the validation loss is taken after `model.eval()`: CrossEntropyLoss applies log_softmax a second time
    textwrap.dedent("""
    import torch
    from torch import nn


    class UNet3D(nn.Module):
        def __init__(self, in_channels, out_channels):
            super().__init__()
            self.net = nn.Conv3d(in_channels, out_channels, 1)
            self.final_activation = nn.Softmax(dim=1)

        def forward(self, x):
            x = self.net(x)
            if not self.training:
                x = self.final_activation(x)
            return x


    def validate(model, loader, criterion):
        model.eval()
        total = 0.0
        with torch.no_grad():
            for input, target in loader:
                output = model(input)
                total += criterion(output, target).item()  # warning: PF112
        model.train()
        return total


    model = UNet3D(1, 4).cuda()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    for epoch in range(10):
        for input, target in train_loader:
            loss = criterion(model(input), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(validate(model, val_loader, criterion))
"""),
    # det131: `if self.training: return logits` then a sigmoid, and a Lightning validation_step on `self(x)`
    textwrap.dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn.functional as F
    from torch import nn


    class Segmenter(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.head = nn.Conv2d(64, 1, 1)

        def forward(self, x):
            logits = self.head(x)
            if self.training:
                return logits
            return torch.sigmoid(logits)

        def training_step(self, batch, batch_idx):
            x, y = batch
            return F.binary_cross_entropy_with_logits(self(x), y)

        def validation_step(self, batch, batch_idx):
            x, y = batch
            loss = F.binary_cross_entropy_with_logits(self(x), y)  # warning: PF112
            self.log("val_loss", loss)

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)
"""),
]

EVAL_MODE_GOOD = [
    # det131 fixes and tricky-correct ones: a forward that applies its activation only in eval mode, with
    # (a) the training loss (train mode), (b) a validation loss taken after `model.train(False)` was undone by
    # `model.train()`, (c) eval-mode probabilities fed to a metric and the loss taken on a separate logits
    # method, (d) a validation loss on an eval-mode forward whose eval branch returns logits too
    textwrap.dedent("""
    import torch
    from torch import nn


    class UNet3D(nn.Module):
        def __init__(self, in_channels, out_channels):
            super().__init__()
            self.net = nn.Conv3d(in_channels, out_channels, 1)
            self.final_activation = nn.Softmax(dim=1)

        def forward(self, x):
            x = self.net(x)
            if not self.training:
                x = self.final_activation(x)
            return x

        def logits(self, x):
            return self.net(x)


    def validate(model, loader, criterion):
        model.eval()
        total, correct = 0.0, 0
        with torch.no_grad():
            for input, target in loader:
                probs = model(input)
                correct += (probs.argmax(1) == target).sum().item()
                total += criterion(model.logits(input), target).item()
        model.train()
        return total, correct


    def train_epoch(model, loader, criterion, optimizer):
        model.eval()
        with torch.no_grad():
            print("before", model(next(iter(loader))[0]).argmax(1))
        model.train()
        for input, target in loader:
            loss = criterion(model(input), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    model = UNet3D(1, 4).cuda()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    for epoch in range(10):
        train_epoch(model, train_loader, criterion, optimizer)
        print(validate(model, val_loader, criterion))
"""),
    textwrap.dedent("""
    import torch
    import torch.nn.functional as F
    from torch import nn


    class Tagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(128, 9)
            self.drop = nn.Dropout(0.1)

        def forward(self, x):
            if self.training:
                x = self.drop(x)
            return self.fc(x)


    def evaluate(model, loader):
        model.eval()
        with torch.no_grad():
            return sum(F.cross_entropy(model(x), y).item() for x, y in loader)


    model = Tagger()
    print(evaluate(model, loader))
"""),
]
