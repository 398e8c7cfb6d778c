"""Readings added by jobs86 beside the ldm model section (tests/test_jobs86_ldm_model.py), each with a silent
twin. Fixtures of our own in the shapes of SalesforceAIResearch/uni2ts (``cli/train.py:129``
``instantiate(cfg.model, _convert_="all")``, a ``_target_`` re-exported by a package ``__init__`` under
``src/``) and haoheliu/AudioLDM-training-finetuning (``audioldm_train/train/latent_diffusion.py:53,62,140,
236-237``: the config's path bound to a name before ``yaml.load(open(path))``, the config handed to
``main(configs, ...)``; a LightningModule named by ``target:``; a "timm model adapter" class
docstring)."""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan


def _facts(plan: dict, field: str, adapter: str = "") -> list:
    return [f for f in TrainingPlan.from_dict(plan).facts(field) if not adapter or f.adapter == adapter]


HYDRA = {
    "cli/train.py": """\
        import hydra
        import lightning as L
        from hydra.utils import instantiate


        @hydra.main(version_base="1.3", config_path="conf", config_name="default")
        def main(cfg):
            model = instantiate(cfg.model, _convert_="all")
            trainer = instantiate(cfg.trainer)
            trainer.fit(model)


        if __name__ == "__main__":
            main()
    """,
    "cli/conf/default.yaml": """\
        model:
          _target_: mypkg.model.moirai.MoiraiPretrain
          d_model: 384
        trainer:
          _target_: lightning.Trainer
          devices: 1
    """,
    "src/mypkg/__init__.py": "",
    "src/mypkg/model/__init__.py": "",
    "src/mypkg/model/moirai/__init__.py": "from .pretrain import MoiraiPretrain\n",
    "src/mypkg/model/moirai/pretrain.py": """\
        import lightning as L
        import torch


        class MoiraiPretrain(L.LightningModule):
            def __init__(self, d_model):
                super().__init__()
                self.d_model = d_model

            def training_step(self, batch, batch_idx):
                return batch

            def configure_optimizers(self):
                optimizer = torch.optim.AdamW(self.parameters(), lr=1e-3)
                return {"optimizer": optimizer}
    """,
}


def test_hydra_model_target_configure_optimizers(cli, tmp_path):
    write(tmp_path, HYDRA)
    plan = plan_of(cli, "cli/train.py", cwd=tmp_path)
    got = _facts(plan, "optimizer.name", "hydra")
    assert [f.value for f in got] == ["AdamW"] and got[0].confidence == "medium"
    assert got[0].source.path == "src/mypkg/model/moirai/pretrain.py" and got[0].source.line == 14


def test_hydra_model_target_silent_twins(cli, tmp_path):
    """The composed config has an optimizer node of its own; the script never instantiates cfg.model; the
    package does not re-export the class."""
    variants = [
        {**HYDRA, "cli/conf/default.yaml": HYDRA["cli/conf/default.yaml"].replace(
            "trainer:", "optimizer:\n          _target_: mylib.Opt\n        trainer:")},
        {**HYDRA, "cli/train.py": HYDRA["cli/train.py"].replace("instantiate(cfg.model, _convert_=\"all\")", "None")},
        {**HYDRA, "src/mypkg/model/moirai/__init__.py": "from .other import Something\n"},
    ]
    for files in variants:
        write(tmp_path, files)
        plan = plan_of(cli, "cli/train.py", cwd=tmp_path)
        assert not [f for f in _facts(plan, "optimizer.name", "hydra") if f.value == "AdamW"]


AUDIOLDM = {
    "train/latent_diffusion.py": """\
        import argparse
        import os

        import torch
        import yaml
        from pytorch_lightning import Trainer
        from torch.utils.data import DataLoader

        from mods.util import instantiate_from_config


        def main(configs, config_yaml_path):
            batch_size = configs["model"]["params"]["batchsize"]
            loader = DataLoader(None, batch_size=batch_size, num_workers=16, pin_memory=True, shuffle=True)
            model = instantiate_from_config(configs["model"])
            trainer = Trainer(accelerator="gpu", devices=torch.cuda.device_count())
            trainer.fit(model, loader)


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("-c", "--config_yaml", type=str, required=False)
            args = parser.parse_args()
            config_yaml = args.config_yaml
            config_yaml_path = os.path.join(config_yaml)
            config_yaml = yaml.load(open(config_yaml_path, "r"), Loader=yaml.FullLoader)
            main(config_yaml, config_yaml_path)
    """,
    "mods/__init__.py": "",
    "mods/util.py": """\
        import importlib


        def instantiate_from_config(config):
            module, cls = config["target"].rsplit(".", 1)
            return getattr(importlib.import_module(module), cls)(**config.get("params", dict()))
    """,
    "mods/ddpm.py": """\
        import pytorch_lightning as pl
        import torch

        from mods.timm_model import TimmModel


        class LatentDiffusion(pl.LightningModule):
            def __init__(self, batchsize=1):
                super().__init__()
                self.net = TimmModel()

            def training_step(self, batch, batch_idx):
                return self.net(batch).mean()

            def configure_optimizers(self):
                return torch.optim.AdamW(self.parameters(), lr=1e-4)
    """,
    "mods/timm_model.py": """\
        import torch.nn as nn


        class TimmModel(nn.Module):
            \"\"\"timm model adapter

            Wraps a timm backbone.
            \"\"\"

            def __init__(self):
                super().__init__()
                self.trunk = nn.Linear(4, 4)
    """,
    "config/audioldm.yaml": """\
        model:
          target: mods.ddpm.LatentDiffusion
          params:
            batchsize: 2
    """,
}


def _audioldm(cli, tmp_path, files) -> dict:
    write(tmp_path, files)
    return plan_of(cli, "train/latent_diffusion.py", "--", "-c", "config/audioldm.yaml", cwd=tmp_path)


def test_config_path_bound_to_a_name_before_it_is_loaded(cli, tmp_path):
    plan = _audioldm(cli, tmp_path, AUDIOLDM)
    got = _facts(plan, "batch.micro")
    assert got and got[0].value == 2 and got[0].source.path == "config/audioldm.yaml"


def test_config_path_silent_twin(cli, tmp_path):
    """The name is bound to something that is not the option (a value not known): no batch size read."""
    script = AUDIOLDM["train/latent_diffusion.py"].replace("config_yaml = args.config_yaml",
                                                           "config_yaml = input()")
    plan = _audioldm(cli, tmp_path, {**AUDIOLDM, "train/latent_diffusion.py": script})
    assert not [f for f in _facts(plan, "batch.micro") if f.value == 2]


def test_loop_in_a_config_named_module_makes_the_job_visible(cli, tmp_path):
    """The training_step is in the module the config's ``target:`` names: no PEFT is named there (a class
    docstring saying "adapter" is prose), so peft.method none."""
    plan = _audioldm(cli, tmp_path, AUDIOLDM)
    got = _facts(plan, "peft.method", "visible_code")
    assert [f.value for f in got] == ["none"]


def test_loop_in_a_config_named_module_silent_twins(cli, tmp_path):
    """LoRA named in code of the named module (not in a docstring); the script builds nothing from its
    config (no dispatch), so the named module's loop is not known to run."""
    lora = AUDIOLDM["mods/timm_model.py"].replace("self.trunk = nn.Linear(4, 4)",
                                                  "self.trunk = nn.Linear(4, 4)\n        self.lora_rank = 4")
    no_dispatch = AUDIOLDM["train/latent_diffusion.py"].replace(
        "model = instantiate_from_config(configs[\"model\"])", "model = None")
    for files in ({**AUDIOLDM, "mods/timm_model.py": lora}, {**AUDIOLDM, "train/latent_diffusion.py": no_dispatch}):
        plan = _audioldm(cli, tmp_path, files)
        assert not _facts(plan, "peft.method", "visible_code")


TIMM_COPY = {
    "main.py": """\
        import argparse

        import torch

        from optim_factory import create_optimizer

        parser = argparse.ArgumentParser()
        parser.add_argument("--opt", default="adamw", type=str)
        parser.add_argument("--lr", default=1e-3, type=float)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        optimizer = create_optimizer(args, model)
        for x in range(3):
            loss = model(torch.randn(2, 4)).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
    """,
    "optim_factory.py": """\
        import torch.optim as optim


        def optimizer_kwargs(cfg):
            kwargs = dict(optimizer_name=cfg.opt, learning_rate=cfg.lr)
            return kwargs


        def create_optimizer(args, model, filter_bias_and_bn=True):
            return create_optimizer_v2(model, **optimizer_kwargs(cfg=args), filter_bias_and_bn=filter_bias_and_bn)


        def create_optimizer_v2(model, optimizer_name="sgd", learning_rate=None, **kwargs):
            opt_lower = optimizer_name.lower()
            opt_split = opt_lower.split("_")
            opt_lower = opt_split[-1]
            if opt_lower == "sgd":
                optimizer = optim.SGD(model.parameters(), lr=learning_rate)
            elif opt_lower == "adamw":
                optimizer = optim.AdamW(model.parameters(), lr=learning_rate)
            return optimizer
    """,
}


def test_copy_of_timms_legacy_optimizer_wrapper(cli, tmp_path):
    """atomicarchitects/equiformer's ``optim_factory.py``: ``create_optimizer(args, model)`` hands
    ``**optimizer_kwargs(cfg=args)`` (``optimizer_name=cfg.opt``) to ``create_optimizer_v2``."""
    write(tmp_path, TIMM_COPY)
    plan = plan_of(cli, "main.py", "--", "--opt", "sgd", cwd=tmp_path)
    assert [f.value for f in _facts(plan, "optimizer.name") if f.adapter == "pytorch"][:1] == ["sgd"]
    plan = plan_of(cli, "main.py", cwd=tmp_path)
    assert [f.value for f in _facts(plan, "optimizer.name") if f.adapter == "pytorch"][:1] == ["adamw"]


def test_copy_that_reads_no_option_is_not_timms(cli, tmp_path):
    """Silent twin: the wrapper's kwargs name the optimizer by something else than ``cfg.opt``."""
    factory = TIMM_COPY["optim_factory.py"].replace("optimizer_name=cfg.opt", "optimizer_name=cfg.optimizer")
    write(tmp_path, {**TIMM_COPY, "optim_factory.py": factory})
    plan = plan_of(cli, "main.py", "--", "--opt", "sgd", cwd=tmp_path)
    assert "sgd" not in [f.value for f in _facts(plan, "optimizer.name")]
