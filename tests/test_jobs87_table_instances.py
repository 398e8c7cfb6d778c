"""The model in real jobs (issue 15, branch jobs87): a project model picked by name from a module-level
table of models built at import (adapters/model_table_instances.py). Small projects of our own in the shape
of huyvnphan/PyTorch_CIFAR10 @ 641cac2 (``module.py:13-38``: ``all_classifiers = {"vgg11_bn": vgg11_bn(),
..., "resnet18": resnet18(), ...}``; ``self.hparams = hparams`` then ``self.model =
all_classifiers[self.hparams.classifier]`` in a LightningModule; ``train.py:40`` ``CIFAR10Module(args)``),
with twins that must state nothing: a name not in the table, a name not known, a table changed in code,
a holder with a layer of its own beside the picked model.
"""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import argparse

    import pytorch_lightning as pl

    from module import CifarModule


    def main(args):
        model = CifarModule(args)
        trainer = pl.Trainer(max_epochs=1)
        trainer.fit(model)


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--classifier", type=str, {default})
        parser.add_argument("--batch_size", type=int, default=256)
        args = parser.parse_args()
        main(args)
"""

MODULE = """\
    import pytorch_lightning as pl
    import torch

    from nets.small import small_net, wide_net

    all_classifiers = {
        "small": small_net(),
        "wide": wide_net(num_classes=100),
    }
    {extra}

    class CifarModule(pl.LightningModule):
        def __init__(self, hparams):
            super().__init__()
            {holder}
            self.criterion = torch.nn.CrossEntropyLoss()
            {layer}self.model = all_classifiers[self.hparams.classifier]

        def forward(self, x):
            return self.model(x)
"""

NETS = """\
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self, width, num_classes=10):
            super().__init__()
            self.body = nn.Linear(32, width)
            self.head = nn.Linear(width, num_classes)


    def small_net(**kwargs):
        return Net(16, **kwargs)


    def wide_net(**kwargs):
        return Net(64, **kwargs)
"""


def _got(cli, tmp_path: Path, *line: str, default: str = 'default="small"', holder: str = "self.hparams = hparams",
         extra: str = "", layer: str = ""):
    write(tmp_path, {"train.py": TRAIN.replace("{default}", default),
                     "module.py": MODULE.replace("{extra}", extra).replace("{holder}", holder)
                     .replace("{layer}", layer),
                     "nets/__init__.py": "", "nets/small.py": NETS})
    plan = plan_of(cli, "train.py", "--", *line, cwd=tmp_path)
    return fact(plan, "model.num_parameters"), fact(plan, "model.ref")


def test_the_declared_default_picks_its_entry(cli, tmp_path: Path) -> None:
    count, ref = _got(cli, tmp_path)
    assert count is not None and count.value == (32 * 16 + 16) + (16 * 10 + 10) and count.confidence == "medium"
    assert ref is not None and ref.value == "small" and "small_net()" in count.source.detail


def test_the_name_on_the_line_picks_the_other_entry_with_its_arguments(cli, tmp_path: Path) -> None:
    count, _ = _got(cli, tmp_path, "--classifier", "wide", holder="self.save_hyperparameters(hparams)")
    assert count is not None and count.value == (32 * 64 + 64) + (64 * 100 + 100)


def test_a_name_not_in_the_table_states_nothing(cli, tmp_path: Path) -> None:
    count, ref = _got(cli, tmp_path, "--classifier", "resnet18")
    assert count is None and (ref is None or ref.value != "small")


def test_a_name_not_known_states_nothing(cli, tmp_path: Path) -> None:
    count, _ = _got(cli, tmp_path, default="required=True")
    assert count is None


def test_a_table_changed_in_code_states_nothing(cli, tmp_path: Path) -> None:
    count, _ = _got(cli, tmp_path, extra='all_classifiers["small"] = wide_net()')
    assert count is None


def test_a_holder_with_a_layer_of_its_own_states_nothing(cli, tmp_path: Path) -> None:
    # the LightningModule adds a projection: its parameters are not the picked net's alone
    count, _ = _got(cli, tmp_path, layer="self.proj = torch.nn.Linear(10, 10)\n            ")
    assert count is None
