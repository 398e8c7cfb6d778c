"""PF378 examples (executable documentation, see tests/test_rules_meta.py)."""

from __future__ import annotations

from textwrap import dedent

BAD = [
    # DeepConvLSTM (dl-for-har issue 11): conv features reshaped to (batch, time, features), default LSTM
    dedent("""
    import torch.nn as nn
    import torch.nn.functional as F


    class DeepConvLSTM(nn.Module):
        def __init__(self, channels, filters, units, classes):
            super().__init__()
            self.conv = nn.Conv2d(1, filters, (5, 1))
            self.lstm = nn.LSTM(filters * channels, hidden_size=units, num_layers=2)  # warning: PF378
            self.classifier = nn.Linear(units, classes)

        def forward(self, x):
            x = F.relu(self.conv(x))
            steps = x.shape[2]
            x = x.permute(0, 2, 1, 3)
            x = x.reshape(-1, steps, x.shape[2] * x.shape[3])
            x, _ = self.lstm(x)
            return self.classifier(x[:, -1, :])
    """),
    # a GRU forecaster fed (batch, window, features) straight from the DataLoader
    dedent("""
    import torch
    from torch import nn


    class Forecaster(nn.Module):
        def __init__(self, features, hidden):
            super().__init__()
            self.gru = nn.GRU(features, hidden, batch_first=False)  # warning: PF378
            self.head = nn.Linear(hidden, 1)

        def forward(self, window):
            out, hidden = self.gru(window)
            return self.head(out[:, -1])
    """),
]

GOOD = [
    # the fix
    dedent("""
    import torch.nn as nn


    class Model(nn.Module):
        def __init__(self, features, hidden, classes):
            super().__init__()
            self.lstm = nn.LSTM(features, hidden, num_layers=2, batch_first=True)
            self.fc = nn.Linear(hidden, classes)

        def forward(self, x):
            out, _ = self.lstm(x)
            return self.fc(out[:, -1, :])
    """),
    # tricky: sequence-first on purpose, the input transposed in and the last step read as out[-1]
    dedent("""
    import torch.nn as nn


    class Model(nn.Module):
        def __init__(self, features, hidden, classes):
            super().__init__()
            self.lstm = nn.LSTM(features, hidden)
            self.fc = nn.Linear(hidden, classes)

        def forward(self, x):
            x = x.transpose(0, 1)
            out, _ = self.lstm(x)
            return self.fc(out[-1])
    """),
    # tricky: the output transposed back to batch-major before the read
    dedent("""
    import torch.nn as nn


    class Model(nn.Module):
        def __init__(self, features, hidden):
            super().__init__()
            self.rnn = nn.RNN(features, hidden)

        def forward(self, x):
            out, _ = self.rnn(x)
            out = out.permute(1, 0, 2)
            return out[:, -1]
    """),
    # tricky: a packed batch, unpacked with batch_first=True before the read
    dedent("""
    import torch.nn as nn
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


    class Model(nn.Module):
        def __init__(self, features, hidden):
            super().__init__()
            self.lstm = nn.LSTM(features, hidden)

        def forward(self, x, lengths):
            packed = pack_padded_sequence(x, lengths, enforce_sorted=False)
            out, _ = self.lstm(packed)
            out, _ = pad_packed_sequence(out, batch_first=True)
            return out[:, -1]
    """),
]
