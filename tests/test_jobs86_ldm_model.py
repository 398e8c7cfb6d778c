"""An ldm-style config's ``model:`` section (``target:`` + ``params:``) built by ``instantiate_from_config``
(adapters/target_params_model.py, adapters/target_class.py) and its ``lightning.trainer`` section handed to
``Trainer.from_argparse_args`` (adapters/ldm_lightning_section.py). Fixtures of our own in the shape of
CompVis/latent-diffusion @ a506df5 main.py:514-531,571,659 and ldm/models/diffusion/ddpm.py (``class
LatentDiffusion(DDPM)``, ``DDPM.configure_optimizers``), Doubiiu/DynamiCrafter main/trainer.py:55-125 and
haoheliu/AudioLDM-training-finetuning audioldm_train/train/latent_diffusion.py:140,236-237; each must-read test
has a silent twin."""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan

MAIN = """\
    import argparse

    import pytorch_lightning as pl
    from omegaconf import OmegaConf
    from pytorch_lightning.trainer import Trainer

    from ldm.util import instantiate_from_config


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("-b", "--base", nargs="*", default=list())
        opt, unknown = parser.parse_known_args()
        configs = [OmegaConf.load(cfg) for cfg in opt.base]
        cli = OmegaConf.from_dotlist(unknown)
        config = OmegaConf.merge(*configs, cli)
        lightning_config = config.pop("lightning", OmegaConf.create())
        trainer_config = lightning_config.get("trainer", OmegaConf.create())
        trainer_opt = argparse.Namespace(**trainer_config)
        model = instantiate_from_config(config.model)
        trainer_kwargs = dict()
        trainer = Trainer.from_argparse_args(trainer_opt, **trainer_kwargs)
        trainer.fit(model, None)
"""

DDPM = """\
    import pytorch_lightning as pl
    import torch

    from ldm.util import instantiate_from_config


    class DDPM(pl.LightningModule):
        def __init__(self, unet_config, learning_rate=1e-4):
            super().__init__()
            self.model = instantiate_from_config(unet_config)

        def training_step(self, batch, batch_idx):
            return self.model(batch).mean()

        def configure_optimizers(self):
            lr = self.learning_rate
            return torch.optim.AdamW(self.model.parameters(), lr=lr)


    class LatentDiffusion(DDPM):
        def __init__(self, first_stage_config=None, **kwargs):
            super().__init__(**kwargs)
"""

UNET = """\
    import torch.nn as nn


    class UNetModel(nn.Module):
        def __init__(self, in_channels, model_channels, use_checkpoint=False, num_heads=-1):
            super().__init__()
            self.use_checkpoint = use_checkpoint
            self.inp = nn.Conv2d(in_channels, model_channels, 3)
"""

CONFIG = """\
    model:
      base_learning_rate: 1.0e-04
      target: ldm.models.diffusion.ddpm.LatentDiffusion
      params:
        unet_config:
          target: ldm.modules.openaimodel.UNetModel
          params:
            in_channels: 3
            model_channels: 224
    lightning:
      trainer:
        benchmark: True
        accumulate_grad_batches: 2
"""

FILES = {
    "main.py": MAIN,
    "ldm/__init__.py": "",
    "ldm/util.py": """\
        import importlib


        def instantiate_from_config(config):
            module, cls = config["target"].rsplit(".", 1)
            return getattr(importlib.import_module(module), cls)(**config.get("params", dict()))
    """,
    "ldm/models/__init__.py": "",
    "ldm/models/diffusion/__init__.py": "",
    "ldm/models/diffusion/ddpm.py": DDPM,
    "ldm/modules/__init__.py": "",
    "ldm/modules/openaimodel.py": UNET,
    "configs/ldm.yaml": CONFIG,
}


def _facts(plan: dict, field: str, adapter: str) -> list:
    return [f for f in TrainingPlan.from_dict(plan).facts(field) if f.adapter == adapter]


def _plan(cli, tmp_path, files, *extra: str) -> dict:
    write(tmp_path, files)
    return plan_of(cli, "main.py", "--", "--base", "configs/ldm.yaml", *extra, cwd=tmp_path)


def test_optimizer_of_the_model_class_inherited_from_its_base(cli, tmp_path):
    plan = _plan(cli, tmp_path, FILES)
    got = _facts(plan, "optimizer.name", "target_params_model")
    assert [f.value for f in got] == ["AdamW"] and got[0].confidence == "medium"
    assert got[0].source.path == "ldm/models/diffusion/ddpm.py" and got[0].source.line == 17
    assert "DDPM.configure_optimizers" in got[0].source.detail


def test_optimizer_silent_twins(cli, tmp_path):
    """The model class is not the project's own; its configure_optimizers picks the class at run time; two
    optimizer classes; the script never builds config.model."""
    variants = [
        {**FILES, "configs/ldm.yaml": CONFIG.replace("ldm.models.diffusion.ddpm.LatentDiffusion", "somelib.LDM")},
        {**FILES, "ldm/models/diffusion/ddpm.py": DDPM.replace(
            "torch.optim.AdamW(self.model.parameters(), lr=lr)",
            "getattr(torch.optim, self.opt_name)(self.model.parameters(), lr=lr)")},
        {**FILES, "ldm/models/diffusion/ddpm.py": DDPM.replace(
            "return torch.optim.AdamW(self.model.parameters(), lr=lr)",
            "if lr > 1:\n                return torch.optim.SGD(self.model.parameters(), lr=lr)\n"
            "            return torch.optim.AdamW(self.model.parameters(), lr=lr)")},
        {**FILES, "main.py": MAIN.replace("model = instantiate_from_config(config.model)", "model = None")},
    ]
    for files in variants:
        plan = _plan(cli, tmp_path, files)
        assert not _facts(plan, "optimizer.name", "target_params_model")


def test_a_subclass_override_wins_over_the_base(cli, tmp_path):
    ddpm = DDPM + """\

        def configure_optimizers(self):
            return torch.optim.Adam(self.parameters(), lr=1e-3)
    """
    plan = _plan(cli, tmp_path, {**FILES, "ldm/models/diffusion/ddpm.py": ddpm})
    assert [f.value for f in _facts(plan, "optimizer.name", "target_params_model")] == ["Adam"]


def test_unet_without_use_checkpoint_is_no_checkpointing(cli, tmp_path):
    plan = _plan(cli, tmp_path, FILES)
    got = _facts(plan, "memory.gradient_checkpointing", "target_params_model")
    assert [f.value for f in got] == [False] and got[0].source.path == "configs/ldm.yaml"


def test_unet_checkpointing_silent_twins(cli, tmp_path):
    """The config sets use_checkpoint; the launch line does; the UNet's default is True."""
    set_in_config = CONFIG.replace("model_channels: 224", "model_channels: 224\n        use_checkpoint: True")
    for files, extra in [
        ({**FILES, "configs/ldm.yaml": set_in_config}, ()),
        (FILES, ("model.params.unet_config.params.use_checkpoint=True",)),
        ({**FILES, "ldm/modules/openaimodel.py": UNET.replace("use_checkpoint=False", "use_checkpoint=True")}, ()),
    ]:
        plan = _plan(cli, tmp_path, files, *extra)
        assert not _facts(plan, "memory.gradient_checkpointing", "target_params_model")


def test_lightning_trainer_section_accumulation(cli, tmp_path):
    plan = _plan(cli, tmp_path, FILES)
    got = _facts(plan, "batch.grad_accum", "ldm_lightning_section")
    assert [f.value for f in got] == [2] and got[0].source.path == "configs/ldm.yaml" and got[0].source.line == 13
    # a dotlist override on the launch line wins
    plan = _plan(cli, tmp_path, FILES, "lightning.trainer.accumulate_grad_batches=4")
    assert [f.value for f in _facts(plan, "batch.grad_accum", "ldm_lightning_section")] == [4]
    # no key in the section: pytorch_lightning 1.x's default
    plan = _plan(cli, tmp_path, {**FILES, "configs/ldm.yaml": CONFIG.replace("    accumulate_grad_batches: 2\n", "")})
    assert [f.value for f in _facts(plan, "batch.grad_accum", "ldm_lightning_section")] == [1]


def test_lightning_section_silent_twins(cli, tmp_path):
    """The script writes the key itself; the call is given it as a keyword; the Namespace is built from
    something else than the section."""
    variants = [
        MAIN.replace("trainer_opt = argparse.Namespace(**trainer_config)",
                     "trainer_config[\"accumulate_grad_batches\"] = 8\n"
                     "        trainer_opt = argparse.Namespace(**trainer_config)"),
        MAIN.replace("Trainer.from_argparse_args(trainer_opt, **trainer_kwargs)",
                     "Trainer.from_argparse_args(trainer_opt, accumulate_grad_batches=8)"),
        MAIN.replace("argparse.Namespace(**trainer_config)", "argparse.Namespace(**vars(opt))"),
    ]
    for main in variants:
        plan = _plan(cli, tmp_path, {**FILES, "main.py": main})
        assert not _facts(plan, "batch.grad_accum", "ldm_lightning_section")
