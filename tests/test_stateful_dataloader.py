"""torchdata's ``StatefulDataLoader`` is a ``DataLoader`` with its signature and defaults: its
``num_workers``/``pin_memory``/``batch_size`` are the job's (volcengine/verl@b178a3cd56f5
``verl/trainer/fsdp_sft_trainer.py:42,183-191``: ``self.train_dataloader = StatefulDataLoader(
dataset=..., batch_size=..., sampler=..., num_workers=8, pin_memory=True, drop_last=True)``)."""

from __future__ import annotations

from tests.plan_helpers import plan_of, winner, write

SCRIPT = """\
import torch
from torch.utils.data import DistributedSampler
from torchdata.stateful_dataloader import StatefulDataLoader

from mydata import make_dataset

train_dataset = make_dataset("train")
train_sampler = DistributedSampler(train_dataset, shuffle=True, drop_last=True)
train_dataloader = StatefulDataLoader(
    dataset=train_dataset,
    batch_size=16,
    sampler=train_sampler,
    num_workers=8,
    pin_memory=True,
    drop_last=True,
)
model = torch.nn.Linear(8, 8)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
for batch in train_dataloader:
    loss = model(batch).sum()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
"""


def test_a_stateful_data_loader_is_read_like_a_data_loader(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "data.num_workers") == 8
    assert winner(plan, "data.pin_memory") is True
    assert winner(plan, "batch.micro") == 16


def test_a_class_of_the_same_name_from_elsewhere_is_not(cli, tmp_path):
    script = SCRIPT.replace("from torchdata.stateful_dataloader import StatefulDataLoader",
                            "from mylib.loaders import StatefulDataLoader")
    write(tmp_path, {"train.py": script})
    plan = plan_of(cli, "--", "python", "train.py", cwd=tmp_path)
    assert winner(plan, "data.num_workers") != 8
