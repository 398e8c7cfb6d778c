"""Hydra ``_target_`` nodes read as data (adapters/hydra_target_data.py): the per-process batch of a project loader
class the trainer builds from ``trainer.data.train`` (facebookresearch/omnivore ``omnivision/data/torch_dataset.py``,
facebookresearch/sam3 ``sam3/train/data/torch_dataset.py``), and the crop of a torchvision pipeline written as
``_target_`` nodes (omnivore ``omnimae_vitbase_ft_in1k.yaml:47-52``, project-lighter/lighter configs). Nothing is
instantiated or imported."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import hydra
    from hydra.utils import instantiate


    @hydra.main(config_path="config", config_name="config", version_base="1.2")
    def main(cfg):
        trainer = instantiate(cfg.trainer, _recursive_=False)
        trainer.run()


    if __name__ == "__main__":
        main()
"""

TRAINER = """\
    import torch
    from hydra.utils import instantiate


    class Trainer:
        def __init__(self, *, data, model, max_epochs, optim=None, accum_steps=1):
            self.data_conf = data
            self.model_conf = model
            self.max_epochs = max_epochs

        def run(self):
            model = instantiate(self.model_conf)
            train = instantiate(self.data_conf.train)
            for epoch in range(self.max_epochs):
                for batch in train.get_loader(epoch=epoch):
                    model(batch).sum().backward()
"""

DATASET = """\
    from torch.utils.data import DataLoader, DistributedSampler


    class TorchDataset:
        def __init__(self, dataset, batch_size, num_workers, shuffle, pin_memory, drop_last, collate_fn=None):
            self.dataset = dataset
            self.batch_size = batch_size
            self.num_workers = num_workers
            self.shuffle = shuffle
            self.pin_memory = pin_memory
            self.drop_last = drop_last
            self.collate_fn = collate_fn
            self.sampler = DistributedSampler(self.dataset, shuffle=self.shuffle)

        def get_loader(self, epoch):
            self.sampler.set_epoch(epoch)
            return DataLoader(
                self.dataset,
                batch_size=self.batch_size,
                num_workers=self.num_workers,
                pin_memory=self.pin_memory,
                drop_last=self.drop_last,
                sampler=self.sampler,
                collate_fn=self.collate_fn,
            )
"""

CONFIG = """\
    trainer:
      _target_: proj.trainer.Trainer
      max_epochs: 100
      model:
        _target_: torch.nn.Linear
        in_features: 768
        out_features: 1000
      data:
        train:
          _target_: proj.torch_dataset.TorchDataset
          dataset:
            _target_: proj.path_dataset.ImagePathDataset
            transforms:
              _target_: torchvision.transforms.Compose
              transforms:
                - _target_: torchvision.transforms.RandomResizedCrop
                  size: 224
                  interpolation: 3
                - _target_: torchvision.transforms.RandomHorizontalFlip
                - _target_: proj.rand_auto_aug.RandAugment
                  magnitude: 9
                - _target_: torchvision.transforms.ToTensor
                - _target_: torchvision.transforms.Normalize
                  mean: [0.485, 0.456, 0.406]
                  std: [0.229, 0.224, 0.225]
          shuffle: True
          batch_size: 32
          num_workers: 10
          pin_memory: True
          drop_last: True
        val:
          _target_: proj.torch_dataset.TorchDataset
          dataset:
            _target_: proj.path_dataset.ImagePathDataset
            transforms:
              _target_: torchvision.transforms.Compose
              transforms:
                - _target_: torchvision.transforms.Resize
                  size: 256
                - _target_: torchvision.transforms.CenterCrop
                  size: 192
                - _target_: torchvision.transforms.ToTensor
          shuffle: False
          batch_size: 64
          num_workers: 8
          pin_memory: True
          drop_last: True
"""


def _plan(cli, tmp_path, config=CONFIG, dataset=DATASET):
    write(tmp_path, {"train.py": TRAIN, "proj/__init__.py": "", "proj/trainer.py": TRAINER,
                     "proj/torch_dataset.py": dataset, "config/config.yaml": config})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_loader_class_batch_and_transform_crop_are_read(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 32 and micro.confidence == "medium"
    assert micro.source.key == "trainer.data.train.batch_size"
    size = fact(plan, "data.image_size")
    assert size is not None and size.value == 224 and size.confidence == "medium"


def test_only_the_evaluation_node_is_not_the_batch(cli, tmp_path):
    """Twin: no training node; the val loader's 64 and its 192 crop are not the training batch and size."""
    config = CONFIG.replace("        train:\n", "        other_val:\n", 1)
    plan = _plan(cli, tmp_path, config=config)
    micro, size = fact(plan, "batch.micro"), fact(plan, "data.image_size")
    assert micro is None or micro.value != 64
    assert size is None or size.value != 192


def test_batch_computed_from_the_attribute_is_not_read(cli, tmp_path):
    """Twin (sam3 forks' ProjectTorchDataset): the loader's batch is the attribute times the accumulation."""
    dataset = DATASET.replace("batch_size=self.batch_size,", "batch_size=self.batch_size * self.accum,").replace(
        "self.collate_fn = collate_fn", "self.collate_fn = collate_fn\n        self.accum = 4")
    micro = fact(_plan(cli, tmp_path, dataset=dataset), "batch.micro")
    assert micro is None or micro.value != 32


def test_batch_sampler_loader_is_not_read(cli, tmp_path):
    """Twin (sam2 TorchTrainMixedDataset): the batch goes through a BatchSampler."""
    dataset = DATASET.replace("batch_size=self.batch_size,", "batch_sampler=self.batch_sampler,").replace(
        "self.collate_fn = collate_fn", "self.collate_fn = collate_fn\n        self.batch_sampler = None")
    micro = fact(_plan(cli, tmp_path, dataset=dataset), "batch.micro")
    assert micro is None or micro.value != 32


def test_accumulation_key_above_one_leaves_the_batch_unknown(cli, tmp_path):
    """Twin: the trainer may split the loader's batch into micro-batches (omnivision's chunked batches)."""
    config = CONFIG.replace("      max_epochs: 100\n", "      max_epochs: 100\n      accum_steps: 4\n", 1)
    micro = fact(_plan(cli, tmp_path, config=config), "batch.micro")
    assert micro is None or micro.value != 32


def test_resize_keeping_the_ratio_after_the_crop_leaves_the_size_unknown(cli, tmp_path):
    """Twin: a Resize to one int after the crop keeps the aspect ratio: the training size is not one square."""
    config = CONFIG.replace("                - _target_: torchvision.transforms.RandomHorizontalFlip\n",
                            "                - _target_: torchvision.transforms.Resize\n                  size: 256\n", 1)
    size = fact(_plan(cli, tmp_path, config=config), "data.image_size")
    assert size is None or size.value not in (224, 256)


def test_project_resize_step_after_the_crop_leaves_the_size_unknown(cli, tmp_path):
    config = CONFIG.replace("proj.rand_auto_aug.RandAugment", "proj.transforms.RandomResizeLongest", 1)
    size = fact(_plan(cli, tmp_path, config=config), "data.image_size")
    assert size is None or size.value != 224


def test_training_pipelines_that_disagree_give_nothing(cli, tmp_path):
    config = CONFIG + (
        "    extra:\n      train_aug:\n        - _target_: torchvision.transforms.RandomCrop\n          size: 160\n")
    size = fact(_plan(cli, tmp_path, config=config), "data.image_size")
    assert size is None or size.value not in (160, 224)


TRAINER_DDP = TRAINER.replace("import torch\n", "import torch\n    import torch.nn as nn\n").replace(
    "            model = instantiate(self.model_conf)\n",
    "            model = instantiate(self.model_conf)\n"
    "            model = nn.parallel.DistributedDataParallel(model, device_ids=[0])\n")


def _launched(cli, tmp_path, trainer, *launch):
    write(tmp_path, {"train.py": TRAIN, "proj/__init__.py": "", "proj/trainer.py": trainer,
                     "proj/torch_dataset.py": DATASET, "config/config.yaml": CONFIG})
    return plan_of(cli, "--", *launch, "train.py", cwd=tmp_path)


def test_trainer_target_module_wrapping_ddp_is_the_sharding(cli, tmp_path):
    """omnivore/sam2 shape: ``trainer._target_`` names a local class whose module builds DDP as
    ``nn.parallel.DistributedDataParallel`` after ``import torch.nn as nn``."""
    plan = _launched(cli, tmp_path, TRAINER_DDP, "torchrun", "--nproc_per_node", "8")
    got = fact(plan, "dist.sharding")
    assert got is not None and got.value == "ddp"


def test_trainer_target_module_without_a_wrapper_says_nothing(cli, tmp_path):
    plan = _launched(cli, tmp_path, TRAINER, "torchrun", "--nproc_per_node", "8")
    got = fact(plan, "dist.sharding")
    assert got is None or got.value != "ddp"


def test_trainer_target_wrapper_under_a_process_guard_is_not_read(cli, tmp_path):
    """Twin: ``if world_size > 1: DDP(...)`` and the process count not known when the config is read."""
    guarded = TRAINER_DDP.replace(
        "            model = nn.parallel.DistributedDataParallel(model, device_ids=[0])\n",
        "            if torch.distributed.get_world_size() > 1:\n"
        "                model = nn.parallel.DistributedDataParallel(model, device_ids=[0])\n")
    plan = _launched(cli, tmp_path, guarded, "python")
    got = fact(plan, "dist.sharding")
    assert got is None or "trainer._target_" not in (got.source.key or "")


def test_ddp_call_by_module_aliases():
    import ast

    from preflight.adapters.pytorch_local import _ddp_call

    nn_alias = "import torch.nn as nn\n\ndef wrap(m):\n    return nn.parallel.DistributedDataParallel(m)\n"
    from_torch = "from torch import nn\n\ndef wrap(m):\n    return nn.parallel.DistributedDataParallel(m)\n"
    parallel_alias = "import torch.nn.parallel as par\n\ndef wrap(m):\n    return par.DistributedDataParallel(m)\n"
    assert _ddp_call(ast.parse(nn_alias)) == 4
    assert _ddp_call(ast.parse(from_torch)) == 4
    assert _ddp_call(ast.parse(parallel_alias)) == 4
    # a name that only looks like it: a project module called ``nn`` is not torch's
    own_nn = "from proj import nn\n\ndef wrap(m):\n    return nn.parallel.DistributedDataParallel(m)\n"
    isinstance_only = "import torch.nn as nn\n\ndef unwrap(m):\n    return isinstance(m, nn.parallel.DistributedDataParallel)\n"
    assert _ddp_call(ast.parse(own_nn)) is None
    assert _ddp_call(ast.parse(isinstance_only)) is None


BOLTS_TRAIN = """\
    import hydra
    import pytorch_lightning as pl
    from hydra.utils import instantiate


    @hydra.main(config_path="../configs", config_name="train", version_base="1.2")
    def main(cfg):
        datamodule = instantiate(cfg.datamodule)
        model = instantiate(cfg.model)
        trainer = pl.Trainer(max_epochs=1)
        trainer.fit(model=model, datamodule=datamodule)


    if __name__ == "__main__":
        main()
"""

BOLTS_DM = """\
    from typing import Any

    import pl_bolts
    from torchvision import transforms as transform_lib


    class CIFAR10DataModule(pl_bolts.datamodules.cifar10_datamodule.CIFAR10DataModule):
        def __init__(self, *args, **kwargs):
            test_transforms = transform_lib.ToTensor()
            super().__init__(*args, test_transforms=test_transforms, **kwargs)

        def val_dataloader(self, *args: Any, **kwargs: Any):
            return self._data_loader(self.dataset_train)
"""

BOLTS_CFG = """\
    datamodule:
      _target_: src.datamodules.cifar10_datamodule.CIFAR10DataModule
      data_dir: data/
      batch_size: 128
      num_workers: 0
      normalize: True
    model:
      _target_: src.models.module.LitModule
"""


def _bolts(cli, tmp_path, dm=BOLTS_DM, cfg=BOLTS_CFG):
    write(tmp_path, {"src/train.py": BOLTS_TRAIN, "src/__init__.py": "", "src/datamodules/__init__.py": "",
                     "src/datamodules/cifar10_datamodule.py": dm, "configs/train.yaml": cfg})
    return plan_of(cli, "src/train.py", cwd=tmp_path)


def test_bolts_datamodule_subclass_keeps_the_native_size(cli, tmp_path):
    """atong01/conditional-flow-matching runner shape: a local subclass of Bolts' CIFAR10DataModule."""
    got = fact(_bolts(cli, tmp_path), "data.image_size")
    assert got is not None and got.value == 32 and got.confidence == "medium"


def test_bolts_datamodule_with_train_transforms_is_not_read(cli, tmp_path):
    """Twin: the node hands its own train_transforms (a crop may resize): the size is not the native one."""
    cfg = BOLTS_CFG.replace("      normalize: True\n", "      normalize: True\n      train_transforms:\n"
                            "        _target_: proj.transforms.UpscaleTo\n        size: 64\n")
    got = fact(_bolts(cli, tmp_path, cfg=cfg), "data.image_size")
    assert got is None or got.value != 32


def test_subclass_that_sets_train_transforms_is_not_read(cli, tmp_path):
    dm = BOLTS_DM.replace("test_transforms=test_transforms,", "train_transforms=transform_lib.Resize(64), "
                          "test_transforms=test_transforms,")
    got = fact(_bolts(cli, tmp_path, dm=dm), "data.image_size")
    assert got is None or got.value != 32


def test_datamodule_not_deriving_from_bolts_says_nothing(cli, tmp_path):
    dm = BOLTS_DM.replace("(pl_bolts.datamodules.cifar10_datamodule.CIFAR10DataModule)", "(pl.LightningDataModule)")
    got = fact(_bolts(cli, tmp_path, dm=dm), "data.image_size")
    assert got is None or got.value != 32
