"""`pin_memory` of a data-loader builder of a local module (issue 15): a small rewrite of our own
with the shape of Plachtaa/seed-vc @ d334fb7 data/ft_dataset.py:74-80 (`build_ft_dataloader(...,
batch_size=1, num_workers=0)` returning `DataLoader(dataset, batch_size=..., shuffle=True,
num_workers=num_workers, collate_fn=collate)`, no pin_memory: the DataLoader default False) and
train.py:53 (`self.train_dataloader = build_ft_dataloader(...)`)."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

DATA = """\
    import torch

    def build_loader(path, batch_size=1, num_workers=0):
        dataset = torch.utils.data.TensorDataset(torch.zeros(8, 2))
        return torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=num_workers)
    """

TRAIN = """\
    import torch
    from data.loaders import build_loader

    class Trainer:
        def __init__(self, path):
            self.train_dataloader = build_loader(path, batch_size=2, num_workers=0)
            self.model = torch.nn.Linear(2, 2)

    Trainer("x")
    """


def test_builder_without_pin_memory_is_not_pinned(cli, tmp_path):
    write(tmp_path, {"data/__init__.py": "", "data/loaders.py": DATA, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--x", "1", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is False


def test_pin_memory_handed_on_or_spread_kwargs(cli, tmp_path):
    handed = DATA.replace("num_workers=0):", "num_workers=0, pin=False):").replace(
        "num_workers=num_workers)", "num_workers=num_workers, pin_memory=pin)")
    write(tmp_path, {"data/__init__.py": "", "data/loaders.py": handed,
                     "train.py": TRAIN.replace("num_workers=0)", "num_workers=0, pin=True)")})
    plan = plan_of(cli, "train.py", "--", "--x", "1", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is True
    spread = DATA.replace("num_workers=0):", "num_workers=0, **kw):").replace(
        "num_workers=num_workers)", "num_workers=num_workers, **kw)")
    write(tmp_path, {"data/loaders.py": spread, "train.py": TRAIN})
    plan = plan_of(cli, "train.py", "--", "--x", "1", cwd=tmp_path)
    assert winner(plan, "data.pin_memory") is None  # **kw may carry pin_memory
