"""Behaviours of issue-18 work on branch det71 that single-file rule examples cannot show: PF201 following
a loader that a project module returns wrapped in an endless generator (``infinite_loader(loader)``) and
that the training loop draws with ``next(data)`` (DiffuSeq issue 12's shape, held-out-30), written here and
run through the CLI as a user does."""

from __future__ import annotations

import textwrap

from cli_check_helpers import check, write

TRAIN = """\
    import os

    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    from data import load_data

    dist.init_process_group("nccl")
    torch.manual_seed(102)
    model = DDP(Net().cuda(), device_ids=[int(os.environ["LOCAL_RANK"])])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    data = load_data(batch_size=64)
    for step in range(50000):
        batch = next(data)
        loss = model(batch.cuda()).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
"""

DATA = """\
    import torch
    from torch.utils.data import DataLoader, Dataset
    from torch.utils.data.distributed import DistributedSampler


    class Rows(Dataset):
        def __len__(self):
            return 1000

        def __getitem__(self, idx):
            return torch.zeros(8)


    def load_data(batch_size, loop=True):
        dataset = Rows()
    {loader}
        if loop:
            return infinite_loader(loader)
        return iter(loader)


    def infinite_loader(loader):
        while True:
            yield from loader
"""


def test_pf201_follows_a_loader_returned_inside_an_endless_generator_and_drawn_with_next(cli, tmp_path):
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "data.py", DATA.format(loader="    loader = DataLoader(dataset, batch_size=batch_size, "
                                                  "shuffle=True)"))
    assert check(cli, tmp_path, "PF201") == [("train.py", 13)]


def test_pf201_is_silent_when_the_wrapped_loader_shards(cli, tmp_path):
    # the DiffuSeq fix: a DistributedSampler inside the helper
    write(tmp_path, "train.py", TRAIN)
    write(tmp_path, "data.py", DATA.format(loader="    loader = DataLoader(dataset, batch_size=batch_size, "
                                                  "sampler=DistributedSampler(dataset))"))
    assert check(cli, tmp_path, "PF201") == []


def test_pf201_is_silent_when_the_generator_does_more_than_re_yield_the_loader(cli, tmp_path):
    # tricky: a generator that takes every world_size-th batch (rank-sharded by hand) is not the loader
    write(tmp_path, "train.py", TRAIN)
    text = DATA.format(loader="    loader = DataLoader(dataset, batch_size=batch_size, shuffle=False)").replace(
        "        while True:\n            yield from loader",
        "        while True:\n            for i, batch in enumerate(loader):\n"
        "                if i % dist.get_world_size() == dist.get_rank():\n                    yield batch")
    write(tmp_path, "data.py", "import torch.distributed as dist\n" + textwrap.dedent(text))
    assert "if i % dist.get_world_size() == dist.get_rank():" in (tmp_path / "data.py").read_text()
    compile((tmp_path / "data.py").read_text(), "data.py", "exec")
    assert check(cli, tmp_path, "PF201") == []
