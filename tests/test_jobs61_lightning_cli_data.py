"""jobs61: the train DataLoader and the optimizer of a LightningCLI job, from the ``data:`` and ``model:`` sections
(``class_path`` / ``init_args``) of the config on its launch line (adapters/lightning_cli_data.py).

Shape from a real job (a fixture of our own that reproduces it): gemelo-ai/vocos @ c859e3b7 ``train.py:5-6``
``cli = LightningCLI(run=False)`` launched with ``-c configs/vocos.yaml``; ``configs/vocos.yaml:4-12`` ``data:
class_path: vocos.dataset.VocosDataModule`` with ``init_args: train_params: {batch_size: 16, num_workers: 8}``;
``vocos/dataset.py:21-35`` ``self.train_config = train_params``, ``train_dataloader`` returns
``self._get_dataloder(self.train_config, train=True)``, which builds ``DataLoader(dataset,
batch_size=cfg.batch_size, num_workers=cfg.num_workers, shuffle=train, pin_memory=True)``;
``vocos/experiment.py:81-82`` two ``torch.optim.AdamW`` in ``configure_optimizers``.
"""

from __future__ import annotations

import textwrap

from preflight.audit import build_plan

TRAIN = '''
from pytorch_lightning.cli import LightningCLI

if __name__ == "__main__":
    cli = LightningCLI(run=False)
    cli.trainer.fit(model=cli.model, datamodule=cli.datamodule)
'''

CONFIG = '''
data:
  class_path: pkg.dataset.AudioDataModule
  init_args:
    train_params:
      filelist_path: ???
      batch_size: 16
      num_workers: 8
    val_params:
      filelist_path: ???
      batch_size: 4
      num_workers: 2

model:
  class_path: pkg.experiment.Exp
  init_args:
    lr: 0.0005

trainer:
  accelerator: gpu
  devices: [0]
'''

DATASET = '''
from dataclasses import dataclass

from pytorch_lightning import LightningDataModule
from torch.utils.data import DataLoader, Dataset


@dataclass
class DataConfig:
    filelist_path: str
    batch_size: int
    num_workers: int


class AudioDataModule(LightningDataModule):
    def __init__(self, train_params: DataConfig, val_params: DataConfig):
        super().__init__()
        self.train_config = train_params
        self.val_config = val_params

    def _get_dataloader(self, cfg: DataConfig, train: bool):
        dataset = AudioDataset(cfg, train=train)
        return DataLoader(dataset, batch_size=cfg.batch_size, num_workers=cfg.num_workers, shuffle=train,
                          pin_memory=True)

    def train_dataloader(self):
        return self._get_dataloader(self.train_config, train=True)

    def val_dataloader(self):
        return self._get_dataloader(self.val_config, train=False)
'''

EXPERIMENT = '''
import pytorch_lightning as pl
import torch


class Exp(pl.LightningModule):
    def __init__(self, lr: float):
        super().__init__()
        self.gen = torch.nn.Linear(4, 4)
        self.disc = torch.nn.Linear(4, 1)

    def configure_optimizers(self):
        opt_disc = torch.optim.AdamW(self.disc.parameters(), lr=self.hparams.lr, betas=(0.8, 0.9))
        opt_gen = torch.optim.AdamW(self.gen.parameters(), lr=self.hparams.lr, betas=(0.8, 0.9))
        return [opt_disc, opt_gen], []
'''


def _plan(tmp_path, argv=(), dataset=DATASET, config=CONFIG, experiment=EXPERIMENT):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "dataset.py").write_text(textwrap.dedent(dataset), encoding="utf-8")
    (pkg / "experiment.py").write_text(textwrap.dedent(experiment), encoding="utf-8")
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(textwrap.dedent(config).lstrip(), encoding="utf-8")
    (tmp_path / "train.py").write_text(textwrap.dedent(TRAIN), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "train.py"], [tmp_path / "configs" / "run.yaml"], root=tmp_path,
                         argv=list(argv))
    return plan


def test_the_train_loader_of_the_data_module_reads_its_init_args(tmp_path):
    plan = _plan(tmp_path)
    micro = plan.resolve("batch.micro")
    assert micro is not None and micro.value == 16 and micro.confidence == "medium"
    assert micro.source.key == "data.init_args.train_params.batch_size" and micro.source.line == 6
    assert plan.value("data.num_workers") == 8  # the train loader's, not the validation one's 2
    pin = plan.resolve("data.pin_memory")
    assert pin is not None and pin.value is True and pin.source.key == "data.class_path"


def test_the_optimizer_of_the_model_section(tmp_path):
    fact = _plan(tmp_path).resolve("optimizer.name")
    assert fact is not None and fact.value == "AdamW" and fact.source.key == "model.class_path"


def test_a_loader_keyword_left_out_is_the_dataloader_default(tmp_path):
    dataset = DATASET.replace("num_workers=cfg.num_workers, ", "").replace(",\n                          pin_memory=True", "")
    plan = _plan(tmp_path, dataset=dataset)
    assert plan.value("data.num_workers") == 0 and plan.value("data.pin_memory") is False
    assert plan.value("batch.micro") == 16


# -- twins that must stay unknown ------------------------------------------------------------------------------

def test_a_launch_line_that_overrides_the_data_section_leaves_it_unread(tmp_path):
    plan = _plan(tmp_path, argv=["--data.init_args.train_params.batch_size=32"])
    assert plan.resolve("batch.micro") is None


def test_keyword_spreading_leaves_the_defaults_unclaimed(tmp_path):
    dataset = DATASET.replace("num_workers=cfg.num_workers, shuffle=train,\n                          pin_memory=True)",
                              "shuffle=train, **self.loader_kwargs)")
    plan = _plan(tmp_path, dataset=dataset)
    assert plan.value("batch.micro") == 16
    assert plan.resolve("data.num_workers") is None and plan.resolve("data.pin_memory") is None


def test_a_key_the_init_args_do_not_give_states_nothing(tmp_path):
    config = CONFIG.replace("      batch_size: 16\n", "")
    plan = _plan(tmp_path, config=config)
    assert plan.resolve("batch.micro") is None
    assert plan.value("data.num_workers") == 8


def test_two_optimizer_classes_or_a_project_optimizer_state_nothing(tmp_path):
    two = EXPERIMENT.replace("opt_gen = torch.optim.AdamW", "opt_gen = torch.optim.Adam")
    assert _plan(tmp_path, experiment=two).resolve("optimizer.name") is None
    (tmp_path / "b").mkdir()
    own = EXPERIMENT.replace("opt_gen = torch.optim.AdamW(", "opt_gen = build_optimizer(")
    assert _plan(tmp_path / "b", experiment=own).resolve("optimizer.name") is None
