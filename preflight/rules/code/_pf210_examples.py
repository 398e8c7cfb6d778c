"""PF210 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

_RNN = dedent("""
    import pytorch_lightning as pl
    import torch
    import torch.nn as nn


    class CharRNN(pl.LightningModule):
        def __init__(self, vocab_size, hidden_size=256, n_layers=2):
            super().__init__()
            self.n_layers, self.hidden_size = n_layers, hidden_size
            self.embedding = nn.Embedding(vocab_size, 64)
            self.lstm = nn.LSTM(64, hidden_size, n_layers, batch_first=True)
            self.out = nn.Linear(hidden_size, vocab_size)

        def forward(self, letters, hidden, cell):
            output, (hidden, cell) = self.lstm(self.embedding(letters), (hidden, cell))
            return self.out(output)

        def init_hidden(self, batch_size):
            return (torch.zeros(self.n_layers, batch_size, self.hidden_size{device}),{pin}
                    torch.zeros(self.n_layers, batch_size, self.hidden_size{device}))

        def training_step(self, batch, batch_idx):
            inputs, targets = batch
            hidden, cell = self.init_hidden(inputs.size(0))
            logits = self(inputs, hidden, cell)
            return nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten())

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=5e-4)
    """)

PF210_BAD = [
    # Lightning issue 3738: the LSTM state from a helper, built on the CPU
    _RNN.format(device="", pin="  # warning: PF210"),
    # the initial state built in forward itself and handed to a GRU layer
    dedent("""
    import lightning as L
    import torch
    from torch import nn


    class Encoder(L.LightningModule):
        def __init__(self, n_in, hidden=128):
            super().__init__()
            self.hidden = hidden
            self.gru = nn.GRU(n_in, hidden, batch_first=True)
            self.head = nn.Linear(hidden, 1)

        def forward(self, x):
            h0 = torch.zeros(1, x.size(0), self.hidden)  # warning: PF210
            out, _ = self.gru(x, h0)
            return self.head(out[:, -1])

        def training_step(self, batch, batch_idx):
            x, y = batch
            return nn.functional.mse_loss(self(x).squeeze(-1), y)
    """),
    # the state bound to a name in the helper before it is returned, consumed by the layer in forward
    dedent("""
    import pytorch_lightning as pl
    import torch
    from torch import nn


    class Forecaster(pl.LightningModule):
        def __init__(self, n_in, hidden_dim=64, n_layers=2):
            super().__init__()
            self.hidden_dim, self.n_layers = hidden_dim, n_layers
            self.rnn = nn.RNN(n_in, hidden_dim, n_layers, batch_first=True)
            self.fc = nn.Linear(hidden_dim, 1)

        def init_hidden(self, batch_size):
            hidden = torch.zeros(self.n_layers, batch_size, self.hidden_dim)  # warning: PF210
            return hidden

        def forward(self, x):
            hidden = self.init_hidden(x.size(0))
            out, hidden = self.rnn(x, hidden)
            return self.fc(out[:, -1])
    """),
]

PF210_GOOD = [
    # the fix of issue 3738: built on the module's device
    _RNN.format(device=", device=self.device", pin=""),
    # tricky: moved with type_as before it reaches the layer
    dedent("""
    import lightning as L
    import torch
    from torch import nn


    class Encoder(L.LightningModule):
        def __init__(self, n_in, hidden=128):
            super().__init__()
            self.hidden = hidden
            self.gru = nn.GRU(n_in, hidden, batch_first=True)

        def forward(self, x):
            h0 = torch.zeros(1, x.size(0), self.hidden).type_as(x)
            out, _ = self.gru(x, h0)
            return out[:, -1]
    """),
    # tricky: rebound to the device inside the method, a scalar tensor, a *_like factory
    dedent("""
    import lightning as L
    import torch
    from torch import nn


    class Encoder(L.LightningModule):
        def __init__(self, n_in, hidden=128):
            super().__init__()
            self.hidden = hidden
            self.gru = nn.GRU(n_in, hidden, batch_first=True)
            self.scale = nn.Linear(1, 1)

        def forward(self, x):
            h0 = torch.zeros(1, x.size(0), self.hidden)
            h0 = h0.to(x.device)
            out, _ = self.gru(x, torch.zeros_like(h0))
            return self.scale(out[:, -1:, 0]) * torch.tensor(2.0)
    """),
    # tricky: a plain nn.Module (the user places it and its inputs; no Lightning move), and a
    # LightningModule trained on the CPU
    dedent("""
    import pytorch_lightning as pl
    import torch
    from torch import nn


    class Encoder(nn.Module):
        def __init__(self, n_in, hidden=128):
            super().__init__()
            self.hidden = hidden
            self.gru = nn.GRU(n_in, hidden, batch_first=True)

        def forward(self, x):
            out, _ = self.gru(x, torch.zeros(1, x.size(0), self.hidden))
            return out[:, -1]


    class Task(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.gru = nn.GRU(8, 16, batch_first=True)

        def forward(self, x):
            out, _ = self.gru(x, torch.zeros(1, x.size(0), 16))
            return out


    trainer = pl.Trainer(accelerator="cpu", max_epochs=1)
    """),
]
