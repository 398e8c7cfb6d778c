"""A Hydra ``instantiate(cfg.dataset)`` DataModule that subclasses the project's own ``LightningDataModule``
(adapters/hydra_datamodule.py ``_local_base``), in the shape of donglinkang2021/MinVQVAE @ the benchmark's
commit: ``configs/dataset/cifar10.yaml`` (``_target_: minvqvae.datasets.cifar10.CIFAR10DataModule``,
``batch_size: ${train.batch_size}``), ``minvqvae/datasets/cifar10.py:4-6`` (``super().__init__(data_dir,
batch_size, num_workers, image_size)``), ``minvqvae/datasets/base.py:18-56`` (``self.batch_size =
batch_size``; ``DataLoader(self.train_set, self.batch_size, num_workers=self.num_workers, shuffle=True)``).
Twins: a subclass that changes what it hands on states nothing."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import hydra


    @hydra.main(config_path="configs", config_name="train", version_base=None)
    def main(cfg):
        dm = hydra.utils.instantiate(cfg.dataset)
        model = hydra.utils.instantiate(cfg.task)
        trainer = hydra.utils.instantiate(cfg.trainer)
        trainer.fit(model, dm)


    if __name__ == "__main__":
        main()
"""

BASE = """\
    import lightning as L
    from torch.utils.data import DataLoader


    class VisionDataModule(L.LightningDataModule):
        def __init__(self, data_dir, batch_size, num_workers, image_size):
            super().__init__()
            self.data_dir = data_dir
            self.batch_size = batch_size
            self.num_workers = num_workers

        def train_dataloader(self):
            return DataLoader(self.train_set, self.batch_size, num_workers=self.num_workers, shuffle=True)
"""

SUB = """\
    from .base import VisionDataModule


    class Cifar(VisionDataModule):
        def __init__(self, data_dir, batch_size, num_workers, image_size):
            super().__init__(data_dir, {handed}, num_workers, image_size)
            {after}
"""

CONFIG = """\
    defaults:
      - _self_
      - train: default
    trainer:
      _target_: lightning.Trainer
      max_epochs: 1
    task:
      _target_: pkg.task.Task
    dataset:
      _target_: pkg.data.cifar.Cifar
      data_dir: data
      batch_size: ${train.batch_size}
      num_workers: ${train.num_workers}
      image_size: 64
"""


def _job(tmp_path, handed: str, after: str = "pass"):
    write(tmp_path, {
        "train.py": TRAIN,
        "pkg/__init__.py": "",
        "pkg/task.py": "import lightning as L\n\n\nclass Task(L.LightningModule):\n    pass\n",
        "pkg/data/__init__.py": "",
        "pkg/data/base.py": BASE,
        "pkg/data/cifar.py": SUB.format(handed=handed, after=after),
        "configs/train.yaml": CONFIG,
        "configs/train/default.yaml": "batch_size: 96\nnum_workers: 3\n",
    })


def test_loader_of_the_project_base_class_reads_the_subclass_node(cli, tmp_path):
    _job(tmp_path, "batch_size")
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 96 and micro.confidence == "medium"
    assert fact(plan, "data.num_workers").value == 3
    assert fact(plan, "data.pin_memory").value is False


def test_subclass_setting_its_own_attributes_beside_the_call_is_read(cli, tmp_path):
    """``super().__init__(data_dir, batch_size, num_workers)`` then ``self.image_size = image_size`` (a real
    form, e.g. ImageNet latents DataModules): the base's loader still reads the node's batch_size."""
    _job(tmp_path, "batch_size", after="self.image_size = image_size")
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro").value == 96


def test_subclass_resetting_the_loader_batch_states_no_batch(cli, tmp_path):
    """Twin: the subclass sets ``self.batch_size`` itself after the call; the node's key is not the loader's."""
    _job(tmp_path, "batch_size", after="self.batch_size = 32")
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro") is None


def test_subclass_handing_on_another_value_states_no_batch(cli, tmp_path):
    """Twin: the subclass hands its base a batch of its own making; the node's batch_size is not the loader's."""
    _job(tmp_path, "batch_size * 2")
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "batch.micro") is None


TASK = """\
    import lightning as L
    import torch


    class Task(L.LightningModule):
        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-3)
"""


def test_optimizer_of_the_fitted_module_built_from_another_key(cli, tmp_path):
    """``model = instantiate(cfg.task)`` then ``trainer.fit(model, dm)`` (MinVQVAE ``train.py:13-18``):
    the LightningModule of ``task`` holds the optimizer."""
    _job(tmp_path, "batch_size")
    write(tmp_path, {"pkg/task.py": TASK})
    got = fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.name")
    assert got is not None and got.value == "AdamW" and got.confidence == "medium"


def test_optimizer_of_a_module_not_fitted_states_nothing(cli, tmp_path):
    """Twin: the fitted module is built by the script's own code, not the instantiated node."""
    _job(tmp_path, "batch_size")
    write(tmp_path, {"pkg/task.py": TASK,
                     "train.py": TRAIN.replace("trainer.fit(model, dm)", "trainer.fit(wrap(model), dm)")})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "optimizer.name") is None
