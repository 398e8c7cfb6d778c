"""Shapes of real jobs (issue 15) reproduced in minimal fixtures of our own: a Lightning+Hydra
template whose model is a small local nn.Module sized by the config, whose DataModule divides
the batch by the world size and whose LightningModule compiles under a ``compile`` key; and a
nanoGPT-style character-level dataset whose vocabulary comes from meta.pkl."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))


def plan_of(cli, *args: str, cwd: Path) -> dict:
    args = list(args)
    cut = args.index("--") if "--" in args else len(args)
    res = cli("audit", *args[:cut], "--emit-plan", "json", *args[cut:], cwd=cwd)
    assert res.code in (0, 1), res.err
    return json.loads(res.out)


def winner(plan: dict, field: str):
    facts = plan["fields"].get(field) or []
    return facts[0] if facts else None


NET = """\
    import torch
    from torch import nn


    class DenseNet(nn.Module):
        def __init__(self, input_size: int = 784, hidden: int = 256, output_size: int = 10) -> None:
            super().__init__()
            self.model = nn.Sequential(
                nn.Linear(input_size, hidden),
                nn.BatchNorm1d(hidden),
                nn.ReLU(),
                nn.Linear(hidden, output_size),
            )
    """
LIT = """\
    import torch
    from lightning import LightningModule


    class LitModule(LightningModule):
        def __init__(self, net, compile: bool) -> None:
            super().__init__()
            self.save_hyperparameters(logger=False)
            self.net = net

        def setup(self, stage):
            if self.hparams.compile and stage == "fit":
                self.net = torch.compile(self.net)
    """
DATA = """\
    from lightning import LightningDataModule


    class DataModule(LightningDataModule):
        def __init__(self, batch_size: int = 64) -> None:
            super().__init__()
            self.save_hyperparameters(logger=False)

        def setup(self, stage=None):
            self.batch_size_per_device = self.hparams.batch_size // self.trainer.world_size
    """
TRAIN = """\
    import hydra
    from omegaconf import DictConfig


    @hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
    def main(cfg: DictConfig) -> None:
        datamodule = hydra.utils.instantiate(cfg.data)
        model = hydra.utils.instantiate(cfg.model)
        trainer = hydra.utils.instantiate(cfg.trainer)
        trainer.fit(model=model, datamodule=datamodule)


    if __name__ == "__main__":
        main()
    """


def template(root: Path, compile_: str = "false", layer: str = "nn.Linear(hidden, output_size)") -> None:
    write(root, {
        "src/__init__.py": "", "src/models/__init__.py": "",
        "src/models/net.py": NET.replace("nn.Linear(hidden, output_size)", layer),
        "src/models/lit.py": LIT, "src/data.py": DATA, "src/train.py": TRAIN,
        "configs/train.yaml": "defaults:\n  - data: default\n  - model: default\n  - trainer: default\n  - _self_\n",
        "configs/data/default.yaml": "_target_: src.data.DataModule\nbatch_size: 128\n",
        "configs/model/default.yaml": ("_target_: src.models.lit.LitModule\nnet:\n  _target_: src.models.net.DenseNet\n"
                                       f"  input_size: 784\n  hidden: 64\n  output_size: 10\ncompile: {compile_}\n"),
        "configs/trainer/default.yaml": "_target_: lightning.pytorch.trainer.Trainer\naccelerator: gpu\ndevices: 1\n",
        "configs/trainer/ddp.yaml": "defaults:\n  - default\nstrategy: ddp\ndevices: 4\nnum_nodes: 1\n",
    })


def test_local_module_sized_by_the_config_is_counted(cli, tmp_path):
    template(tmp_path)
    plan = plan_of(cli, "src/train.py", cwd=tmp_path)
    fact = winner(plan, "model.num_parameters")
    assert fact is not None
    # 784*64+64 + 2*64 + 64*10+10, the config's sizes over the constructor defaults
    assert fact["value"] == 784 * 64 + 64 + 128 + 650
    assert fact["confidence"] == "medium"
    assert fact["source"]["path"].endswith("configs/model/default.yaml")
    assert "src/models/net.py" in fact["source"]["detail"]


def test_local_module_with_an_unknown_layer_is_not_counted(cli, tmp_path):
    template(tmp_path, layer="Mystery(hidden, output_size)")
    plan = plan_of(cli, "src/train.py", cwd=tmp_path)
    assert winner(plan, "model.num_parameters") is None


def test_compile_key_read_by_the_module_and_batch_divided_by_world(cli, tmp_path):
    template(tmp_path, compile_="true")
    plan = plan_of(cli, "src/train.py", "--", "trainer=ddp", cwd=tmp_path)
    assert winner(plan, "compile.enabled")["value"] is True
    micro = winner(plan, "batch.micro")
    assert micro["value"] == 32, micro
    assert "src/data.py:10" in micro["source"]["detail"]
    single = plan_of(cli, "src/train.py", cwd=tmp_path)
    assert winner(single, "batch.micro")["value"] == 128
