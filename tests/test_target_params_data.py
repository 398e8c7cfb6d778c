"""An ldm-style config's ``data:`` section (``target:`` + ``params:``) named by ``--base`` on the launch line
and built by ``instantiate_from_config(config.data)`` (adapters/target_params_data.py). Fixtures of our own
copying CompVis/latent-diffusion @ a506df575647 main.py:55-62,162-204,514-516,663 and
configs/latent-diffusion/celebahq-ldm-vq-4.yaml:60-64; each must-fill test has a silent twin."""

from __future__ import annotations

from plan_helpers import plan_of, write

from preflight.plan import TrainingPlan

LDM_LIKE = {
    "main.py": """\
        import argparse

        import pytorch_lightning as pl
        from omegaconf import OmegaConf
        from torch.utils.data import DataLoader

        from ldm.util import instantiate_from_config


        class DataModuleFromConfig(pl.LightningDataModule):
            def __init__(self, batch_size, train=None, validation=None, num_workers=None):
                super().__init__()
                self.batch_size = batch_size
                self.num_workers = num_workers if num_workers is not None else batch_size * 2
                self.dataset_configs = {"train": train, "validation": validation}

            def _train_dataloader(self):
                return DataLoader(self.datasets["train"], batch_size=self.batch_size,
                                  num_workers=self.num_workers, shuffle=True)

            def _val_dataloader(self):
                return DataLoader(self.datasets["validation"], batch_size=self.batch_size,
                                  num_workers=self.num_workers)


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("-b", "--base", nargs="*", default=list())
            parser.add_argument("-t", "--train", action="store_true")
            opt, unknown = parser.parse_known_args()
            configs = [OmegaConf.load(cfg) for cfg in opt.base]
            cli = OmegaConf.from_dotlist(unknown)
            config = OmegaConf.merge(*configs, cli)
            model = instantiate_from_config(config.model)
            data = instantiate_from_config(config.data)
            trainer = pl.Trainer(max_epochs=1)
            trainer.fit(model, data)
    """,
    "ldm/__init__.py": "",
    "ldm/util.py": """\
        import importlib


        def instantiate_from_config(config):
            module, cls = config["target"].rsplit(".", 1)
            return getattr(importlib.import_module(module), cls)(**config.get("params", dict()))
    """,
    "configs/ldm.yaml": """\
        model:
          target: ldm.models.diffusion.ddpm.LatentDiffusion
          params:
            image_size: 64
        data:
          target: main.DataModuleFromConfig
          params:
            batch_size: 48
            num_workers: 5
            train:
              target: taming.data.faceshq.CelebAHQTrain
              params:
                size: 256
    """,
}


def _won(plan: dict, field: str):
    return TrainingPlan.from_dict(plan).resolve(field)


def test_data_section_built_by_instantiate_from_config(cli, tmp_path):
    write(tmp_path, LDM_LIKE)
    plan = plan_of(cli, "main.py", "--", "--base", "configs/ldm.yaml", "-t", cwd=tmp_path)
    micro = _won(plan, "batch.micro")
    assert micro is not None and micro.value == 48 and micro.confidence == "medium"
    assert micro.source.path == "configs/ldm.yaml" and micro.source.line == 8
    workers = _won(plan, "data.num_workers")
    assert workers is not None and workers.value == 5 and workers.source.line == 9
    # a dotlist override on the launch line wins over the file
    plan = plan_of(cli, "main.py", "--", "--base", "configs/ldm.yaml", "-t", "data.params.batch_size=12",
                   cwd=tmp_path)
    assert _won(plan, "batch.micro").value == 12


def test_a_class_that_keeps_no_loader_size_or_no_builder_says_nothing(cli, tmp_path):
    """Silent twins: the data class's train loader takes a batch size of its own (only the validation loader
    reads self.batch_size); the script never builds config.data; the target is a library class (not a
    module of the job)."""
    variants = [
        {**LDM_LIKE, "main.py": LDM_LIKE["main.py"].replace(
            "return DataLoader(self.datasets[\"train\"], batch_size=self.batch_size,",
            "return DataLoader(self.datasets[\"train\"], batch_size=4,")},
        {**LDM_LIKE, "main.py": LDM_LIKE["main.py"].replace("data = instantiate_from_config(config.data)",
                                                            "data = None")},
        {**LDM_LIKE, "configs/ldm.yaml": LDM_LIKE["configs/ldm.yaml"].replace("target: main.DataModuleFromConfig",
                                                                              "target: somelib.DataModule")},
    ]
    for files in variants:
        write(tmp_path, files)
        plan = plan_of(cli, "main.py", "--", "--base", "configs/ldm.yaml", "-t", cwd=tmp_path)
        assert not [f for f in TrainingPlan.from_dict(plan).facts("batch.micro") if f.adapter == "target_params_data"]
