"""jobs124: a LightningCLI data module whose train DataLoader spreads one ``__init__`` argument whole
(``DataLoader(ds, **self.train_dataloader_opts)``), and a console script's package outside the audited folder
whose config names the project's classes by ``class_path`` (adapters/lightning_cli_data.py ``spread_param``,
adapters/visible_code.py ``_target_texts``, adapters/config_target_modules.py).

Shape from a real job (a fixture of our own that reproduces it): Ruunyox/pytorch-hpc @ c5848148, launched from
``examples/fit`` as ``pythpc --config fashion_mnist_fcc_multi_node_multi_gpu.yaml fit`` (``pythpc`` is
``pytorch_hpc.scripts.__main__:main``, a bare ``LightningCLI()``); the YAML nests ``trainer``/``model``/``data``
under ``fit:``, ``data.init_args.train_dataloader_opts: {batch_size: 512, shuffle: True, num_workers: 2}``;
``pytorch_hpc/pl/pl_data.py:117,134-138`` keeps the dict through ``self._initialize_loaders(...)`` (``{}`` when
None) and ``:214-216`` returns ``DataLoader(self.dataset_train, **self.train_dataloader_opts)``.
"""

from __future__ import annotations

import textwrap

from preflight.audit import build_plan

MAIN = '''
from lightning.pytorch.cli import LightningCLI


def main():
    cli = LightningCLI(save_config_kwargs={"overwrite": True})


if __name__ == "__main__":
    main()
'''

CONFIG = '''
fit:
    trainer:
        accelerator: gpu
        devices: 4
        num_nodes: 2
        precision: 32
    optimizer:
        class_path: torch.optim.Adam
    model:
        class_path: hpcpkg.pl.pl_model.LitModel
        init_args:
            hidden: 64
    data:
        class_path: hpcpkg.pl.pl_data.VisionData
        init_args:
            dataset_name: FashionMNIST
            train_dataloader_opts:
                batch_size: 512
                shuffle: True
                num_workers: 2
            val_dataloader_opts:
                batch_size: 128
                num_workers: 7
                pin_memory: true
'''

DATA = '''
import lightning.pytorch as pl
from torch.utils.data import DataLoader


class VisionData(pl.LightningDataModule):
    def __init__(self, dataset_name, train_dataloader_opts=None, val_dataloader_opts=None):
        super().__init__()
        self.dataset_name = dataset_name
        self._initialize_loaders(train_dataloader_opts, val_dataloader_opts)

    def _initialize_loaders(self, train_dataloader_opts, val_dataloader_opts):
        if train_dataloader_opts is None:
            self.train_dataloader_opts = {}
        else:
            self.train_dataloader_opts = train_dataloader_opts
        self.val_dataloader_opts = val_dataloader_opts or {}

    def train_dataloader(self):
        return DataLoader(self.dataset_train, **self.train_dataloader_opts)

    def val_dataloader(self):
        return DataLoader(self.dataset_val, **self.val_dataloader_opts)
'''

MODEL = '''
import lightning.pytorch as pl
import torch


class LitModel(pl.LightningModule):
    def __init__(self, hidden):
        super().__init__()
        self.net = torch.nn.Linear(784, hidden)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.cross_entropy(self.net(x.flatten(1)), y)
'''


def _plan(tmp_path, data=DATA, model=MODEL, config=CONFIG, argv=("--config", "run.yaml", "fit")):
    files = {
        "setup.py": "from setuptools import setup\nsetup(name='hpcpkg', entry_points={'console_scripts': "
                    "['hpc = hpcpkg.scripts.__main__:main']})\n",
        "hpcpkg/__init__.py": "",
        "hpcpkg/pl/__init__.py": "",
        "hpcpkg/pl/pl_data.py": data,
        "hpcpkg/pl/pl_model.py": model,
        "hpcpkg/scripts/__main__.py": MAIN,
        "examples/fit/run.yaml": config,
    }
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    run = tmp_path / "examples" / "fit"
    plan, _ = build_plan([tmp_path / "hpcpkg" / "scripts" / "__main__.py"], [run / "run.yaml"], root=run,
                         argv=list(argv))
    return plan


def test_a_spread_loader_option_dict_is_read_key_by_key(tmp_path):
    plan = _plan(tmp_path)
    micro = plan.resolve("batch.micro")
    assert micro is not None and (micro.value, micro.confidence) == (512, "medium")
    assert micro.source.key == "data.init_args.train_dataloader_opts.batch_size"
    assert plan.value("data.num_workers") == 2  # the train loader's, not the validation loader's 7
    pin = plan.resolve("data.pin_memory")  # not in the spread dict: the DataLoader's default
    assert pin is not None and pin.value is False and pin.adapter == "lightning_cli_data"


def test_the_console_script_package_classes_are_read_for_absences(tmp_path):
    plan = _plan(tmp_path)
    for field, value in (("compile.enabled", False), ("memory.gradient_checkpointing", False),
                         ("peft.method", "none")):
        got = plan.resolve(field)
        assert got is not None and got.value == value and got.adapter == "visible_code", field


def test_checkpointing_in_the_named_model_module_keeps_it_unknown(tmp_path):
    model = MODEL.replace("return torch.nn.functional", "x = torch.utils.checkpoint.checkpoint(self.net, x)\n"
                                                         "        return torch.nn.functional")
    assert model != MODEL
    plan = _plan(tmp_path, model=model)
    assert plan.value("memory.gradient_checkpointing") is None
    assert plan.value("compile.enabled") is False


def test_a_dict_changed_after_it_is_kept_is_not_read(tmp_path):
    data = DATA.replace("        self.val_dataloader_opts = val_dataloader_opts or {}\n",
                        "        self.val_dataloader_opts = val_dataloader_opts or {}\n"
                        "        self.train_dataloader_opts.update(batch_size=8)\n")
    assert data != DATA
    plan = _plan(tmp_path, data=data)
    assert plan.value("batch.micro") is None
    assert plan.value("data.pin_memory") is None


def test_no_dict_in_the_config_stays_unknown(tmp_path):
    config = CONFIG.replace("            train_dataloader_opts:\n                batch_size: 512\n"
                            "                shuffle: True\n                num_workers: 2\n", "")
    assert config != CONFIG
    plan = _plan(tmp_path, config=config)
    # None -> {}: DataLoader's own batch of 1 at run time; not claimed from an absent section
    assert plan.value("batch.micro") is None and plan.value("data.num_workers") is None
