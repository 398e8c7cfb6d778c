"""batch.micro when a helper returns its train and evaluation loaders together (held-out-27's Hydra CIFAR
twin): the evaluation loader, told by its dataset, does not give the training micro-batch."""

from __future__ import annotations

import textwrap
from pathlib import Path

from preflight.audit import build_plan

_HELPER = textwrap.dedent("""
    import torch
    import torchvision


    def loaders(root, batch_size):
        train = torchvision.datasets.CIFAR10(root, train=True)
        {eval_name} = torchvision.datasets.CIFAR10(root, train={flag})
        return (torch.utils.data.DataLoader(train, batch_size=batch_size, shuffle=True),
                torch.utils.data.DataLoader({eval_name}, batch_size=256))
""")

_TRAIN = textwrap.dedent("""
    import argparse

    import torch

    from data import loaders

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=128)
    args = parser.parse_args()
    train_loader, test_loader = loaders("data", args.batch_size)
    for x, y in train_loader:
        loss = model(x).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
""")


def _micro(tmp_path: Path, eval_name: str, flag: str) -> object:
    (tmp_path / "data.py").write_text(_HELPER.format(eval_name=eval_name, flag=flag), encoding="utf-8")
    (tmp_path / "train.py").write_text(_TRAIN, encoding="utf-8")
    plan, project = build_plan([tmp_path / "train.py", tmp_path / "data.py"], [], root=tmp_path, strict=True)
    assert project.errors == []
    fact = plan.resolve("batch.micro")
    return None if fact is None else fact.value


def test_test_loader_batch_is_not_the_training_micro_batch(tmp_path: Path) -> None:
    # the dataset named `test`, and one built with train=False under a neutral name
    assert _micro(tmp_path, "test", "False") != 256
    assert _micro(tmp_path, "held", "False") != 256


def test_a_second_training_dataset_still_counts(tmp_path: Path) -> None:
    # neither name nor construction says evaluation: preflight does not guess which loader trains
    assert _micro(tmp_path, "extra", "True") == 256
