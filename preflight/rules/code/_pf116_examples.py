"""PF116 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

PF116_BAD = [
    # SimpleNet issue 2: F.dropout2d(..., training=True) in forward, evaluated after model.eval()
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class SimpleNet(nn.Module):
        def __init__(self, classes=10):
            super().__init__()
            self.features = nn.Conv2d(3, 64, 3)
            self.classifier = nn.Linear(64, classes)

        def forward(self, x):
            out = F.max_pool2d(self.features(x), 2)
            out = F.dropout2d(out, 0.1, training=True)  # warning: PF116
            return self.classifier(out.flatten(1))


    def evaluate(loader, device="cuda"):
        model = SimpleNet().to(device)
        model.eval()
        with torch.no_grad():
            return [model(x.to(device)).argmax(1) for x, _ in loader]
"""),
    # the functional default is training=True
    textwrap.dedent("""
    import torch
    from torch import nn
    from torch.nn import functional as F


    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(784, 256)
            self.fc2 = nn.Linear(256, 10)

        def forward(self, x):
            return self.fc2(F.dropout(F.relu(self.fc1(x)), 0.5))  # warning: PF116


    net = MLP()
    net.eval()
    with torch.no_grad():
        pred = net(torch.zeros(1, 784))
"""),
]

PF116_GOOD = [
    # the fix: training=self.training; a dropout switched by hand under an if
    textwrap.dedent("""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class SimpleNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            x = F.dropout2d(x, 0.1, training=self.training)
            if self.training:
                x = F.dropout(x, 0.2, training=True)
            return self.fc(x)


    model = SimpleNet()
    model.eval()
"""),
    # Monte Carlo dropout: always on by design, and the model is never switched to eval()
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class BNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(1, 50)
            self.out = nn.Linear(50, 1)

        def forward(self, x):
            return self.out(F.dropout(F.relu(self.fc(x)), p=0.1, training=True))


    def predict(model, x, samples=50):
        model.train()
        return [model(x) for _ in range(samples)]


    model = BNN()
"""),
    # a Tacotron prenet keeps dropout on at inference on purpose
    textwrap.dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class Prenet(nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = nn.Linear(80, 256)

        def forward(self, x):
            return F.dropout(F.relu(self.layer(x)), p=0.5, training=True)


    prenet = Prenet()
    prenet.eval()
"""),
]
