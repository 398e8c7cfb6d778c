"""A loader's worker count capped by ``min``/``max`` of counts the configuration gives (issue 15, branch jobs112;
adapters/loader_workers_bound.py). Shape: ZhengPeng7/BiRefNet @ 25cb930 ``train.py:83-92`` (``num_workers=min(
config.num_workers, batch_size)`` in a loader helper handed ``config.batch_size``) and ``config.py:8,77`` (a plain
``Config`` class: ``self.batch_size = 8``, ``self.num_workers = max(4, self.batch_size)``); the same cap with a literal
in other scripts (``num_workers=min(config.num_workers, 2)``, ``min(args.num_workers, 4)``). The fixtures are our own,
written to that shape, beside twins that must stay unknown (a machine count, no worker key)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, winner, write

CONFIG = """\
    class Config():
        def __init__(self) -> None:
            self.batch_size = 8
            self.lr = 1e-4
            self.num_workers = max(4, self.batch_size)
"""

TRAIN = """\
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    from config import Config

    config = Config()


    def prepare_dataloader(dataset, batch_size):
        return DataLoader(dataset=dataset, batch_size=batch_size, num_workers=min(config.num_workers, batch_size),
                          pin_memory=True, shuffle=True, drop_last=True)


    def main():
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr)
        loader = prepare_dataloader(TensorDataset(torch.zeros(64, 4)), config.batch_size)
        for (x,) in loader:
            loss = model(x).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def _plan(cli, tmp_path, config: str = CONFIG, train: str = TRAIN) -> dict:
    write(tmp_path, {"config.py": config, "train.py": train})
    return plan_of(cli, "train.py", "--", "python", "train.py", cwd=tmp_path)


def test_the_cap_by_the_batch_size(cli, tmp_path) -> None:
    plan = _plan(cli, tmp_path)
    assert winner(plan, "batch.micro") == 8
    got = fact(plan, "data.num_workers")
    assert got is not None and got.value == 8 and got.confidence == "medium"


def test_the_smaller_count_wins(cli, tmp_path) -> None:
    # ``max(4, 2) = 4`` workers capped by a batch of 2: 2
    plan = _plan(cli, tmp_path, CONFIG.replace("self.batch_size = 8", "self.batch_size = 2"))
    assert winner(plan, "data.num_workers") == 2


def test_a_literal_cap(cli, tmp_path) -> None:
    plan = _plan(cli, tmp_path, train=TRAIN.replace("min(config.num_workers, batch_size)", "min(config.num_workers, 2)"))
    assert winner(plan, "data.num_workers") == 2


def test_a_machine_count_stays_unknown(cli, tmp_path) -> None:
    # ``os.cpu_count()``: where the job runs decides, not its files
    train = TRAIN.replace("import torch\n", "import os\n\n    import torch\n", 1) \
        .replace("min(config.num_workers, batch_size)", "min(config.num_workers, os.cpu_count())")
    plan = _plan(cli, tmp_path, train=train)
    assert winner(plan, "data.num_workers") is None


def test_no_worker_key_stays_unknown(cli, tmp_path) -> None:
    # ``min(config.batch_size, 16)``: no count of workers among the arguments
    plan = _plan(cli, tmp_path, train=TRAIN.replace("min(config.num_workers, batch_size)", "min(config.batch_size, 16)"))
    assert winner(plan, "data.num_workers") is None
