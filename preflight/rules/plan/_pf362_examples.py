"""PF362 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line, good ones
stay silent."""

from __future__ import annotations

import textwrap

_DATA = textwrap.dedent("""
    # --- tabular.py
    import numpy as np
    import torch
    from torch.utils.data import Dataset


    class Prices(Dataset):
        def __init__(self, path):
            data = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float32)
            self.x = torch.from_numpy(data[:, :-1])
            self.y = torch.from_numpy(data[:, {column}])

        def __len__(self):
            return len(self.y)

        def __getitem__(self, i):
            return self.x[i], self.y[i]
""")

_TRAIN = textwrap.dedent("""
    # --- train.py
    import torch
    from torch import nn
    from torch.utils.data import DataLoader

    from tabular import Prices

    loader = DataLoader(Prices("train.csv"), batch_size=64, shuffle=True)
    model = nn.Sequential(nn.Linear(13, 64), nn.ReLU(), nn.Linear(64, {out}))
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(100):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion({pred}, y){pin}
            loss.backward()
            optimizer.step()
""")

_CLASS = textwrap.dedent("""
    # --- fit.py
    import torch
    import torch.nn.functional as F
    from torch import nn
    from torch.utils.data import DataLoader, Dataset


    class Rows(Dataset):
        def __init__(self, rows):
            self.rows = rows

        def __len__(self):
            return len(self.rows)

        def __getitem__(self, i):
            features, target = self.rows[i]
            return torch.tensor(features), {target}


    class Regressor(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(8, 32), nn.Tanh())
            self.head = nn.Linear(32, 1)

        def forward(self, x):
            return self.head(self.body(x))


    def fit(rows):
        train_set = Rows(rows)
        loader = DataLoader(train_set, batch_size=32)
        net = Regressor()
        opt = torch.optim.SGD(net.parameters(), lr=0.01)
        for xb, yb in loader:
            opt.zero_grad()
            F.l1_loss(net(xb), yb.float()).backward(){pin}
            opt.step()
""")

BAD_EXAMPLES = [
    # pytorch issue 16045: Linear(n, 1) predictions against a column of targets, broadcast to [batch, batch]
    _TRAIN.format(out=1, pred="model(x)", pin="  # error: PF362") + _DATA.format(column=-1),
    # the same through a module class and F.l1_loss, the target a float per row
    _CLASS.format(target="float(target)", pin="  # error: PF362"),
]

GOOD_EXAMPLES = [
    # the fix: the prediction squeezed to [batch]
    _TRAIN.format(out=1, pred="model(x).squeeze(-1)", pin="") + _DATA.format(column=-1),
    # tricky-correct: the dataset keeps a [1]-shaped target (a 2-D slice); a model with several outputs
    _TRAIN.format(out=1, pred="model(x)", pin="") + _DATA.format(column="-1:"),
    _TRAIN.format(out=3, pred="model(x)", pin="") + _DATA.format(column=-1).replace("data[:, :-1]", "data[:, :-3]"),
    # tricky-correct: the target returned as a one-element tensor
    _CLASS.format(target="torch.tensor([target])", pin=""),
]
