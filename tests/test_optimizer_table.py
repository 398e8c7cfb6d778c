"""An optimizer class picked from a dict literal by an option's value (``adapters/pytorch.py``:
``_table_alias``). Shape of facebookresearch/dlrm @ 090956ee2319ddd349a42232958aefccfe3f7b0a
``dlrm_s_pytorch.py:972,1342-1369``."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

SCRIPT = """\
    import argparse

    import torch

    parser = argparse.ArgumentParser()
    parser.add_argument("--optimizer", type=str, default="sgd")
    parser.add_argument("--learning-rate", type=float, default=0.01)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4).cuda()
    opts = {{
        "sgd": torch.optim.SGD,
        "adagrad": torch.optim.Adagrad,
        "adam": torch.optim.Adam,
    }}
    {extra}
    optimizer = opts[{key}](model.parameters(), lr=args.learning_rate)
    for step in range(10):
        loss = model(torch.zeros(4).cuda()).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """


def _plan(cli, tmp_path: Path, *line: str, extra: str = "", key: str = "args.optimizer") -> dict:
    write(tmp_path, {"train.py": SCRIPT.format(extra=extra, key=key)})
    return plan_of(cli, "train.py", "--", *line, cwd=tmp_path)


def test_the_option_picks_the_class_from_the_table(cli, tmp_path: Path) -> None:
    got = fact(_plan(cli, tmp_path, "--learning-rate", "1.0"), "optimizer.name")
    assert got is not None and got.value == "SGD" and got.source.line == 16  # the default key
    assert winner(_plan(cli, tmp_path, "--optimizer", "adam"), "optimizer.name") == "Adam"


def test_an_unknown_key_or_a_table_bound_twice_names_no_optimizer(cli, tmp_path: Path) -> None:
    assert fact(_plan(cli, tmp_path, "--optimizer", "lamb"), "optimizer.name") is None
    assert fact(_plan(cli, tmp_path, key="name_from_elsewhere()"), "optimizer.name") is None
    assert fact(_plan(cli, tmp_path, extra="opts = {'sgd': torch.optim.AdamW}"), "optimizer.name") is None
