"""A Hydra app on the grok-ai/nn-template shape (adapters/hydra_env_root.py, adapters/hydra_datamodule.py and
the read-only callee / dead debug branch of adapters/lightning_mapping.py). Fixtures of our own copying the
shape of txie-93/cdvae @ f857f598d6f6 (cdvae/run.py:19,67-88,127,141-150,164; cdvae/common/utils.py:10-32,92;
cdvae/pl_data/datamodule.py:36-48,100-107; conf/default.yaml, conf/train/default.yaml:9-13,
conf/data/perov.yaml:59-66): must-read cases and silent twins."""

from __future__ import annotations

import json

from plan_helpers import fact, plan_of, write

UTILS = """\
    import os
    from pathlib import Path

    import dotenv


    def get_env(env_name, default=None):
        if env_name not in os.environ:
            if default is None:
                raise KeyError(f"{env_name} not defined")
            return default
        return os.environ[env_name]


    dotenv.load_dotenv(override=True)
    PROJECT_ROOT: Path = Path(get_env("PROJECT_ROOT"))
    os.chdir(PROJECT_ROOT)
"""

RUN = """\
    from typing import List

    import hydra
    import omegaconf
    import pytorch_lightning as pl
    from pytorch_lightning.callbacks import EarlyStopping

    from proj.common.utils import PROJECT_ROOT


    def build_callbacks(cfg) -> List:
        callbacks = []
        if "early_stopping" in cfg.train:
            callbacks.append(EarlyStopping(monitor=cfg.train.monitor_metric,
                                           patience=cfg.train.early_stopping.patience))
        return callbacks


    def run(cfg):
        if cfg.train.pl_trainer.fast_dev_run:
            cfg.train.pl_trainer.gpus = 0
            cfg.data.datamodule.num_workers.train = 0
        datamodule = hydra.utils.instantiate(cfg.data.datamodule, _recursive_=False)
        model = hydra.utils.instantiate(cfg.model, optim=cfg.optim, _recursive_=False)
        callbacks = build_callbacks(cfg=cfg)
        trainer = pl.Trainer(callbacks=callbacks, deterministic=cfg.train.deterministic, **cfg.train.pl_trainer)
        trainer.fit(model=model, datamodule=datamodule)


    @hydra.main(config_path=str(PROJECT_ROOT / "conf"), config_name="default")
    def main(cfg: omegaconf.DictConfig):
        run(cfg)


    if __name__ == "__main__":
        main()
"""

DATAMODULE = """\
    import pytorch_lightning as pl
    from torch_geometric.data import DataLoader


    class CrystDataModule(pl.LightningDataModule):
        def __init__(self, datasets, num_workers, batch_size, scaler_path=None):
            super().__init__()
            self.datasets = datasets
            self.num_workers = num_workers
            self.batch_size = batch_size

        def train_dataloader(self):
            return DataLoader(self.train_dataset, shuffle=True, batch_size=self.batch_size.train,
                              num_workers=self.num_workers.train)

        def val_dataloader(self):
            return [DataLoader(d, batch_size=self.batch_size.val, num_workers=self.num_workers.val)
                    for d in self.val_datasets]
"""

FILES = {
    "proj/__init__.py": "",
    "proj/common/__init__.py": "",
    "proj/common/utils.py": UTILS,
    "proj/pl_data/__init__.py": "",
    "proj/pl_data/datamodule.py": DATAMODULE,
    "proj/run.py": RUN,
    "conf/default.yaml": """\
        expname: test
        defaults:
          - data: default
          - model: vae
          - optim: default
          - train: default
    """,
    "conf/data/default.yaml": """\
        datamodule:
          _target_: proj.pl_data.datamodule.CrystDataModule
          datasets: {}
          num_workers:
            train: 6
            val: 2
          batch_size:
            train: 384
            val: 128
    """,
    "conf/model/vae.yaml": "_target_: proj.pl_modules.model.CDVAE\nhidden_dim: 256\n",
    "conf/optim/default.yaml": "optimizer:\n  _target_: torch.optim.Adam\n  lr: 0.001\n",
    "conf/train/default.yaml": """\
        deterministic: False
        pl_trainer:
          fast_dev_run: False
          gpus: 2
          precision: 16
          accumulate_grad_batches: 4
        monitor_metric: val_loss
        early_stopping:
          patience: 60
    """,
}


def _plan(cli, tmp_path, files):
    write(tmp_path, files)
    return plan_of(cli, "proj/run.py", "--", "expname=perov", cwd=tmp_path)


def test_env_var_project_root_config_is_composed_at_medium(cli, tmp_path):
    plan = _plan(cli, tmp_path, FILES)
    opt = fact(plan, "optimizer.name")
    assert opt.value == "Adam" and opt.confidence == "medium"
    assert any("environment variable PROJECT_ROOT" in n for n in plan["notes"])
    # Trainer(**cfg.train.pl_trainer), through build_callbacks(cfg=cfg) (read only) and the dead debug branch
    for field, value in (("dist.devices_per_node", 2), ("batch.grad_accum", 4), ("precision.mode", "amp_fp16")):
        got = fact(plan, field)
        assert got is not None and got.value == value and got.confidence == "medium", (field, got)
    # the DataModule's train_dataloader: self.batch_size.train <- __init__'s batch_size <- the node's key
    assert fact(plan, "batch.micro").value == 384
    assert fact(plan, "data.num_workers").value == 6
    pin = fact(plan, "data.pin_memory")
    assert pin.value is False and pin.confidence == "medium"


def test_head_not_an_environment_variable_is_not_guessed(cli, tmp_path):
    """Silent twin: PROJECT_ROOT from a call of the project's own code: the folder is not guessed."""
    files = dict(FILES)
    files["proj/common/utils.py"] = UTILS.replace('Path(get_env("PROJECT_ROOT"))', 'Path(find_root())')
    write(tmp_path, files)
    res = cli("audit", "proj/run.py", "--", "expname=perov", cwd=tmp_path)
    assert res.code == 3
    assert "config_path" in res.out + res.err


def test_two_candidate_folders_are_not_guessed(cli, tmp_path):
    """Silent twin: a conf/default.yaml beside the script too: which root the variable names is not known."""
    files = dict(FILES)
    files["proj/conf/default.yaml"] = "expname: other\n"
    write(tmp_path, files)
    res = cli("audit", "proj/run.py", "--", "expname=perov", cwd=tmp_path)
    assert res.code == 3


def test_live_debug_branch_leaves_gpus_unknown(cli, tmp_path):
    """Twin: fast_dev_run True on the launch line: the branch runs, gpus is written to 0: not the config's 2."""
    write(tmp_path, FILES)
    plan = plan_of(cli, "proj/run.py", "--", "expname=perov", "train.pl_trainer.fast_dev_run=true", cwd=tmp_path)
    got = fact(plan, "dist.devices_per_node")
    assert got is None or got.value != 2


def test_callee_that_writes_the_mapping_is_not_followed(cli, tmp_path):
    """Twin: build_callbacks writes a Trainer key: the mapping is not known, its keys are not read."""
    files = dict(FILES)
    files["proj/run.py"] = RUN.replace("        callbacks = []\n",
                                       "        callbacks = []\n        cfg.train.pl_trainer.gpus = 8\n")
    plan = _plan(cli, tmp_path, files)
    got = fact(plan, "dist.devices_per_node")
    assert got is None or got.value != 2
    assert fact(plan, "batch.grad_accum") is None or fact(plan, "batch.grad_accum").value != 4


def test_datamodule_not_instantiated_is_not_read(cli, tmp_path):
    """Twin: the script builds its DataModule from another node: the composed node's loader is not read."""
    files = dict(FILES)
    files["proj/run.py"] = RUN.replace("instantiate(cfg.data.datamodule, _recursive_=False)",
                                       "instantiate(cfg.other_dm, _recursive_=False)")
    plan = _plan(cli, tmp_path, files)
    got = fact(plan, "batch.micro")
    assert got is None or got.value != 384
    assert json.dumps(plan)  # the plan is still produced
