"""A ``LightningCLI(Model, DataModule)`` that fixes its classes: the config's ``model:`` and ``data:`` sections
are their ``__init__`` arguments themselves (no ``class_path``), the train loader may be built by a base class
of the same file, a subclass may set a loader attribute to a literal after ``super().__init__``, and the model
may call an ``OptimizerCallable`` its section gives as ``class_path: torch.optim.X``.

Shape from a real job (jobs set 49, a fixture of our own that reproduces it): snucmlrl/vi_latent_action @
a35a992 ``latent_action_model/main.py:1-9`` ``LightningCLI(DINO_LAM, LightningOpenX, ...)``, ``config/lam.yaml``
``model: optimizer: {class_path: torch.optim.AdamW, init_args: ...}`` and ``data: batch_size: 32``;
``genie/dataset.py:48,88-101`` ``LightningDataset.train_dataloader`` builds ``DataLoader(...,
batch_size=self.batch_size, num_workers=self.num_workers)``, ``:166-198`` ``LightningOpenX(LightningDataset)``
keeps ``self.batch_size = batch_size`` and sets ``self.num_workers = 0`` after ``super().__init__(**kwargs)``;
``genie/model.py:45,68,279-280`` ``self.optimizer = optimizer``, ``self.optimizer(self.parameters())``.
"""

from __future__ import annotations

import textwrap

from preflight.audit import build_plan

TRAIN = '''
from lightning.pytorch.cli import LightningCLI
from pkg.dataset import OpenX
from pkg.model import LAM

cli = LightningCLI(LAM, OpenX, seed_everything_default=42)
'''

CONFIG = '''
model:
  dim: 768
  optimizer:
    class_path: torch.optim.AdamW
    init_args:
      lr: 1e-4
data:
  root: ../data
  batch_size: 32
trainer:
  devices: 4
'''

DATASET = '''
from lightning import LightningDataModule
from torch.utils.data import DataLoader


class Base(LightningDataModule):
    def __init__(self, num_workers=8, batch_size=1):
        super().__init__()
        self.num_workers = num_workers
        self.batch_size = batch_size

    def train_dataloader(self):
        return DataLoader(self.train_dataset, batch_size=self.batch_size, num_workers=self.num_workers)


class OpenX(Base):
    def __init__(self, root, batch_size=4, **kwargs):
        super(OpenX, self).__init__(**kwargs)
        self.root = root
        self.batch_size = batch_size
        self.num_workers = 0
'''

MODEL = '''
import lightning as L
from torch.optim import AdamW


class LAM(L.LightningModule):
    def __init__(self, dim, optimizer=AdamW):
        super().__init__()
        self.optimizer = optimizer

    def configure_optimizers(self):
        return self.optimizer(self.parameters())
'''


def _plan(tmp_path, train=TRAIN, config=CONFIG, dataset=DATASET, model=MODEL):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "dataset.py").write_text(textwrap.dedent(dataset), encoding="utf-8")
    (pkg / "model.py").write_text(textwrap.dedent(model), encoding="utf-8")
    (tmp_path / "lam.yaml").write_text(textwrap.dedent(config).lstrip(), encoding="utf-8")
    (tmp_path / "main.py").write_text(textwrap.dedent(train), encoding="utf-8")
    plan, _ = build_plan([tmp_path / "main.py"], [tmp_path / "lam.yaml"], root=tmp_path,
                         argv=["main.py", "fit", "--config", "lam.yaml"], strict=True)
    return plan


def test_fixed_classes_read_their_sections(tmp_path):
    plan = _plan(tmp_path)
    micro = plan.resolve("batch.micro")
    assert micro is not None and micro.value == 32 and micro.confidence == "medium"
    assert micro.source.key == "data.batch_size" and micro.source.line == 9
    assert plan.value("data.num_workers") == 0  # the subclass's literal, not the base's default 8
    assert plan.value("data.pin_memory") is False
    opt = plan.resolve("optimizer.name")
    assert opt is not None and opt.value == "AdamW" and opt.source.key == "model.optimizer.class_path"


def test_a_literal_set_before_super_init_is_not_the_loaders(tmp_path):
    dataset = DATASET.replace('''        super(OpenX, self).__init__(**kwargs)
        self.root = root
        self.batch_size = batch_size
        self.num_workers = 0''', '''        self.num_workers = 0
        super(OpenX, self).__init__(**kwargs)
        self.root = root
        self.batch_size = batch_size''')
    plan = _plan(tmp_path, dataset=dataset)
    assert plan.value("batch.micro") == 32
    assert plan.resolve("data.num_workers") is None


def test_an_optimizer_that_is_not_torch_optim_is_not_named(tmp_path):
    plan = _plan(tmp_path, config=CONFIG.replace("torch.optim.AdamW", "pkg.optim.Lion"))
    assert plan.resolve("optimizer.name") is None


def test_classes_not_fixed_by_the_call_take_no_section(tmp_path):
    plan = _plan(tmp_path, train=TRAIN.replace("LightningCLI(LAM, OpenX, ", "LightningCLI("))
    assert plan.resolve("batch.micro") is None
    assert plan.resolve("optimizer.name") is None
