"""Shapes from real reports that need a project on disk (held-out-5's DataModule split, Lightning
issue 7728): a random split in a LightningDataModule's ``setup`` is drawn on every DDP process when
the Trainer beside it runs several devices."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

DATAMODULE = """
import pytorch_lightning as pl
from torch.utils.data import DataLoader, random_split
from torchvision.datasets import MNIST


class MNISTDataModule(pl.LightningDataModule):
    def setup(self, stage=None):
        full = MNIST("data", train=True)
        self.train, self.val = random_split(full, [55000, 5000]SEED)

    def train_dataloader(self):
        return DataLoader(self.train, batch_size=64, shuffle=True)
"""

TRAIN = """
import pytorch_lightning as pl

from datamodule import MNISTDataModule
from model import LitClassifier

SEEDING
trainer = pl.Trainer(accelerator="gpu", DEVICES, max_epochs=10)
trainer.fit(LitClassifier(), datamodule=MNISTDataModule())
"""


def write(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


def project(tmp_path: Path, seed: str = "", seeding: str = "", devices: str = 'devices=4, strategy="ddp"') -> None:
    write(tmp_path, "datamodule.py", DATAMODULE.replace("SEED", seed))
    write(tmp_path, "train.py", TRAIN.replace("SEEDING", seeding).replace("DEVICES", devices))


def pf226(cli, tmp_path: Path) -> list[tuple[str, int]]:
    result = cli("check", ".", "--select", "PF226", "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [(Path(f["path"]).name, f["line"]) for f in json.loads(result.out)["findings"]]


def test_an_unseeded_split_in_datamodule_setup_under_a_ddp_trainer_beside_it_is_reported(cli, tmp_path):
    project(tmp_path)
    assert pf226(cli, tmp_path) == [("datamodule.py", 9)]


def test_the_split_with_its_own_generator_is_silent(cli, tmp_path):
    project(tmp_path, seed=", generator=torch.Generator().manual_seed(42)")
    assert pf226(cli, tmp_path) == []


def test_seed_everything_in_the_training_script_is_silent(cli, tmp_path):
    project(tmp_path, seeding="pl.seed_everything(42)")
    assert pf226(cli, tmp_path) == []


def test_a_single_device_trainer_is_silent(cli, tmp_path):
    project(tmp_path, devices="devices=1")
    assert pf226(cli, tmp_path) == []
