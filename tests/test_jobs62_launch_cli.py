"""Issue 15, branch jobs62: set 31's launch shapes (fixtures of our own that copy the real code's shape; each with
a twin that must stay unknown): a project's console script run by name or through a runner (PyTorch-YOLOv3), and a
project subclass of LightningCLI with default config files, a trainer override, --optimizer and --data
(perceiver-io). The other shapes of the round are in ``test_jobs62_shapes.py``.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# PyTorch-YOLOv3's shape (eriklindernoren/PyTorch-YOLOv3 @ 1d621c8 README.md:88 ``poetry run yolo-train ...``,
# pyproject.toml:38-41 ``[tool.poetry.scripts] yolo-train = "pytorchyolo.train:run"``): the console script's
# module is the job's script
_YOLO_TRAIN = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader


    def run():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch", type=int, default=16)
        parser.add_argument("--n_cpu", type=int, default=8)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        loader = DataLoader(list(range(64)), batch_size=args.batch, shuffle=True, num_workers=args.n_cpu,
                            pin_memory=True)
        optimizer = torch.optim.Adam(model.parameters())
        for x in loader:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        run()
"""
_POETRY = """\
    [tool.poetry]
    name = "PyTorchYolo"
    version = "1.8.0"

    [tool.poetry.scripts]
    yolo-detect = "pytorchyolo.detect:run"
    yolo-train = "pytorchyolo.train:run"
"""


def _console(cli, tmp_path, packaging: dict[str, str], *launch: str) -> dict:
    write(tmp_path, {"pytorchyolo/__init__.py": "", "pytorchyolo/train.py": _YOLO_TRAIN, **packaging})
    return plan_of(cli, "--", *launch, cwd=tmp_path)


def _assert_yolo_job(plan: dict, batch: int) -> None:
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == batch, micro
    assert fact(plan, "data.num_workers").value == 8
    assert fact(plan, "optimizer.name").value == "Adam"
    world = fact(plan, "dist.world_size")
    assert world is not None and world.value == 1, world
    assert any(i["path"] == "pytorchyolo/train.py" for i in plan["inputs"]), plan["inputs"]
    assert any("console script declared in" in n and "pytorchyolo.train" in n for n in plan["notes"]), plan["notes"]


def test_poetry_run_console_script_audits_its_module(cli, tmp_path):
    plan = _console(cli, tmp_path, {"pyproject.toml": _POETRY}, "poetry", "run", "yolo-train", "--batch", "4")
    _assert_yolo_job(plan, 4)


def test_console_script_on_the_path_from_project_scripts(cli, tmp_path):
    # PEP 621 ``[project.scripts]``; the name typed bare (installed with ``pip install -e .``)
    packaging = {"pyproject.toml": '[project]\nname = "yolo"\n[project.scripts]\nyolo-train = "pytorchyolo.train:run"\n'}
    plan = _console(cli, tmp_path, packaging, "CUDA_VISIBLE_DEVICES=0", "yolo-train", "--batch", "2")
    _assert_yolo_job(plan, 2)


def test_console_script_from_setup_py_entry_points(cli, tmp_path):
    # SolipsisAI/research setup.py: ``entry_points={"console_scripts": ["trainer=src.run:main", ...]}``
    setup = ('from setuptools import setup\nsetup(name="y", entry_points={"console_scripts": '
             '["yolo-train=pytorchyolo.train:run", "chat-test=pytorchyolo.chat:main"]})\n')
    plan = _console(cli, tmp_path, {"setup.py": setup}, "yolo-train")
    _assert_yolo_job(plan, 16)


def test_console_script_from_setup_cfg(cli, tmp_path):
    cfg = "[metadata]\nname = y\n\n[options.entry_points]\nconsole_scripts =\n    yolo-train = pytorchyolo.train:run\n"
    plan = _console(cli, tmp_path, {"setup.cfg": cfg}, "uv", "run", "yolo-train", "--batch", "8")
    _assert_yolo_job(plan, 8)


def test_runner_prefix_before_python(cli, tmp_path):
    write(tmp_path, {"train.py": _YOLO_TRAIN})
    plan = plan_of(cli, "--", "poetry", "run", "python", "train.py", "--batch", "6", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 6
    assert fact(plan, "dist.world_size").value == 1


def test_runner_prefix_in_a_launch_script(cli, tmp_path):
    write(tmp_path, {"train.py": _YOLO_TRAIN, "run.sh": "#!/bin/bash\nuv run python train.py --batch 12\n"})
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 12


def _refused(cli, tmp_path, packaging: dict[str, str], *launch: str) -> str:
    """The launch line names no script preflight can read: exit 3 and one message saying nothing was audited."""
    write(tmp_path, {"pytorchyolo/__init__.py": "", "pytorchyolo/train.py": _YOLO_TRAIN, **packaging})
    res = cli("audit", "--emit-plan", "json", "--", *launch, cwd=tmp_path)
    assert res.code == 3, (res.code, res.out, res.err)
    assert "nothing was audited" in res.err, res.err
    assert "Traceback" not in res.err
    return res.err


def test_twin_undeclared_name_is_not_a_job(cli, tmp_path):
    # the name is declared nowhere in the project: nothing is audited as its script, and the user is told so
    err = _refused(cli, tmp_path, {"pyproject.toml": _POETRY}, "poetry", "run", "yolo-test", "--batch", "4")
    assert "poetry" in err


def test_twin_runner_with_its_own_options_is_left_alone(cli, tmp_path):
    # ``uv run --with X NAME``: the runner's options are not read, so the line is not rewritten (and not audited)
    err = _refused(cli, tmp_path, {"pyproject.toml": _POETRY}, "uv", "run", "--with", "rich", "yolo-train")
    assert "uv" in err


def test_twin_console_script_whose_module_is_missing(cli, tmp_path):
    packaging = {"pyproject.toml": '[project]\nname = "y"\n[project.scripts]\nyolo-train = "elsewhere.train:run"\n'}
    err = _refused(cli, tmp_path, packaging, "yolo-train", "--batch", "4")
    assert "yolo-train" in err


# perceiver-io's shape (krasserm/perceiver-io @ 46c6325): examples/training/img_clf/train.sh runs
# ``python -m perceiver.scripts.vision.image_classifier fit ... --trainer.strategy=ddp_static_graph``; the CLI is a
# project subclass (perceiver/scripts/cli.py:13-35) with default config files from importlib.resources and an
# instantiate_trainer that turns the strategy name into DDPStrategy(static_graph=True)
_PIO_CLI = """\
    from importlib.resources import path
    from typing import Any

    from pytorch_lightning import Trainer
    from pytorch_lightning.cli import LightningCLI
    from pytorch_lightning.strategies import DDPStrategy


    class CLI(LightningCLI):
        def __init__(self, model_class, run=True, **kwargs):
            with path("pio.scripts", "trainer.yaml") as p:
                trainer_defaults = {"default_config_files": [str(p)]}

            super().__init__(
                model_class,
                run=run,
                save_config_kwargs={"overwrite": True},
                parser_kwargs={"fit": trainer_defaults, "test": trainer_defaults},
                **kwargs
            )

        def instantiate_trainer(self, **kwargs: Any) -> Trainer:
            cfg = self.config_init[self.subcommand]
            {override}
            return super().instantiate_trainer(**kwargs)
"""
_PIO_OVERRIDE = """if cfg["trainer"]["strategy"] == "ddp_static_graph":
                cfg["trainer"]["strategy"] = DDPStrategy(static_graph=True, find_unused_parameters=False)"""
_PIO_MAIN = """\
    from pytorch_lightning.cli import LightningArgumentParser

    from pio.model import LitClassifier
    from pio.scripts.cli import CLI


    class ClassifierCLI(CLI):
        def add_arguments_to_parser(self, parser: LightningArgumentParser) -> None:
            super().add_arguments_to_parser(parser)
            parser.set_defaults({{defaults}})


    if __name__ == "__main__":
        ClassifierCLI(LitClassifier, run=True)
"""
_PIO_MODEL = """\
    import pytorch_lightning as pl
    import torch


    class LitClassifier(pl.LightningModule):
        def __init__(self, num_latents: int = 512):
            super().__init__()
            self.layer = torch.nn.Linear(4, 4)

        def training_step(self, batch, batch_idx):
            return self.layer(batch).sum()
"""
_PIO_DATA = """\
    import os

    import pytorch_lightning as pl
    from torch.utils.data import DataLoader


    class MNISTDataModule(pl.LightningDataModule):
        def __init__(
            self,
            dataset_dir: str = os.path.join(".cache", "mnist"),
            batch_size: int = 64,
            num_workers: int = 3,
            pin_memory: bool = True,
        ):
            super().__init__()
            self.save_hyperparameters()

        def train_dataloader(self):
            return DataLoader(
                self.ds_train,
                shuffle=True,
                batch_size=self.hparams.batch_size,
                num_workers=self.hparams.num_workers,
                pin_memory=self.hparams.pin_memory,
            )

        def val_dataloader(self):
            return DataLoader(self.ds_valid, batch_size=1000, num_workers=0)
"""
_PIO_TRAINER = "trainer:\n  default_root_dir: logs\n  strategy: ddp_find_unused_parameters_false\n{extra}"
_PIO_FLAGS = ("--model.num_latents=32 --data=MNISTDataModule --data.batch_size=128 --optimizer=AdamW "
              "--optimizer.lr=1e-3 --trainer.accelerator=gpu --trainer.devices=2 --trainer.max_epochs=30 "
              "--trainer.strategy=ddp_static_graph")


def _pio(cli, tmp_path, override: str = _PIO_OVERRIDE, defaults: str = '"model.num_latents": 512',
         extra: str = "", flags: str = _PIO_FLAGS, more: dict[str, str] | None = None) -> dict:
    write(tmp_path, {"pio/__init__.py": "", "pio/model.py": _PIO_MODEL, "pio/data/__init__.py": "",
                     "pio/data/mnist.py": _PIO_DATA, "pio/scripts/__init__.py": "",
                     "pio/scripts/cli.py": _PIO_CLI.replace("{override}", override),
                     "pio/scripts/classifier.py": _PIO_MAIN.replace("{defaults}", defaults),
                     "train.sh": f"python -m pio.scripts.classifier fit {flags}\n", **(more or {})})
    (tmp_path / "pio/scripts/trainer.yaml").write_text(_PIO_TRAINER.replace("{extra}", extra))
    return plan_of(cli, "train.sh", cwd=tmp_path)


def test_lightning_cli_subclass_reads_trainer_flags_defaults_and_rewrite(cli, tmp_path):
    plan = _pio(cli, tmp_path)
    world = fact(plan, "dist.world_size")
    assert world.value == 2 and world.confidence == "medium", world
    assert fact(plan, "dist.nodes").value == 1
    assert fact(plan, "dist.devices_per_node").value == 2
    sharding = fact(plan, "dist.sharding")
    assert sharding.value == "ddp" and sharding.source.key == "--trainer.strategy", sharding
    assert "instantiate_trainer" in sharding.source.detail, sharding.source
    assert fact(plan, "batch.grad_accum").value == 1
    assert fact(plan, "precision.mode").value == "fp32"


def test_lightning_cli_data_module_and_optimizer_by_name(cli, tmp_path):
    plan = _pio(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 128 and micro.source.kind == "cli" and micro.source.key == "--data.batch_size", micro
    workers = fact(plan, "data.num_workers")
    assert workers.value == 3 and workers.source.path == "pio/data/mnist.py" and workers.source.line == 12, workers
    assert fact(plan, "data.pin_memory").value is True
    assert fact(plan, "batch.global").value == 256
    optim = fact(plan, "optimizer.name")
    assert optim.value == "AdamW" and optim.confidence == "medium", optim


def test_lightning_cli_default_config_file_is_read_under_the_flags(cli, tmp_path):
    # the subclass's default config file sets num_nodes and accumulation; the flags win for strategy
    plan = _pio(cli, tmp_path, extra="  num_nodes: 2\n  accumulate_grad_batches: 4\n")
    nodes = fact(plan, "dist.nodes")
    assert nodes.value == 2 and nodes.source.path == "pio/scripts/trainer.yaml" and nodes.source.line == 4, nodes
    assert fact(plan, "dist.world_size").value == 4
    assert fact(plan, "batch.grad_accum").value == 4


def test_twin_strategy_name_the_override_does_not_rewrite_stays_unknown(cli, tmp_path):
    plan = _pio(cli, tmp_path, flags=_PIO_FLAGS.replace("ddp_static_graph", "my_custom_graph"))
    sharding = fact(plan, "dist.sharding")
    assert sharding is None, sharding
    assert fact(plan, "dist.devices_per_node").value == 2


def test_twin_override_that_sets_devices_leaves_them_unknown(cli, tmp_path):
    plan = _pio(cli, tmp_path, override='cfg["trainer"]["devices"] = torch.cuda.device_count()')
    devices = fact(plan, "dist.devices_per_node")
    assert devices is None or devices.value != 2, devices
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 2, world


def test_twin_set_defaults_of_trainer_keys_leaves_the_trainer_unread(cli, tmp_path):
    plan = _pio(cli, tmp_path, defaults='"trainer.num_nodes": 4')
    nodes = fact(plan, "dist.nodes")
    assert nodes is None or nodes.value != 1, nodes


def test_twin_data_module_defined_twice_is_not_read(cli, tmp_path):
    plan = _pio(cli, tmp_path, more={"pio/data/copy.py": _PIO_DATA})
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 128, micro
    assert fact(plan, "dist.world_size").value == 2


def test_lightning_cli_direct_call_with_default_config_files(cli, tmp_path):
    # ``LightningCLI(parser_kwargs={"fit": {"default_config_files": ["config.fit.yaml"]}})`` (a real shape found
    # by code search), launched with flags only: the default file's trainer section is read under the flags
    main = ('from lightning.pytorch.cli import LightningCLI\n\nif __name__ == "__main__":\n    LightningCLI(\n'
            '        parser_kwargs={"fit": {"default_config_files": ["config.fit.yaml"]}},\n    )\n')
    write(tmp_path, {"main.py": main, "config.fit.yaml": "trainer:\n  devices: 4\n  num_nodes: 2\n"})
    plan = plan_of(cli, "main.py", "--", "python", "main.py", "fit", "--trainer.num_nodes=1", cwd=tmp_path)
    world = fact(plan, "dist.world_size")
    assert world is not None and world.value == 4, world
    devices = fact(plan, "dist.devices_per_node")
    assert devices.source.path == "config.fit.yaml" and devices.source.line == 2, devices.source


def test_twin_lightning_cli_default_config_file_not_found_is_not_read(cli, tmp_path):
    main = ('from lightning.pytorch.cli import LightningCLI\n\nif __name__ == "__main__":\n    LightningCLI(\n'
            '        parser_kwargs={"fit": {"default_config_files": ["missing.yaml"]}},\n    )\n')
    write(tmp_path, {"main.py": main})
    plan = plan_of(cli, "main.py", "--", "python", "main.py", "fit", "--trainer.devices=2", cwd=tmp_path)
    assert fact(plan, "dist.world_size") is None


# Ruunyox/pytorch-hpc @ c5848148 examples/fit/cli_test_multi_node_multi_gpu.sh: ``srun pythpc --config X.yaml fit``
# under #SBATCH --nodes=2 --ntasks-per-node=4, ``pythpc = pytorch_hpc.scripts.__main__:main`` (setup.py:29), a
# LightningCLI whose config, given before the subcommand, holds its settings under ``fit:``
_HPC = {
    "setup.py": ('from setuptools import setup\nsetup(name="h", entry_points={"console_scripts": '
                 '["pythpc = hpc.scripts.__main__:main"]})\n'),
    "hpc/__init__.py": "",
    "hpc/scripts/__init__.py": "",
    "hpc/scripts/__main__.py": """\
        from lightning.pytorch.cli import LightningCLI


        def main():
            LightningCLI(save_config_kwargs={"overwrite": True})


        if __name__ == "__main__":
            main()
    """,
    "fit.yaml": """\
        fit:
          trainer:
            accelerator: gpu
            devices: 4
            num_nodes: 2
            precision: 32
    """,
    "run.sh": """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=4
        #SBATCH --gres=gpu:4
        srun pythpc --config fit.yaml fit --trainer.max_epochs=3
    """,
}


def test_console_script_under_srun_in_a_launch_script(cli, tmp_path):
    write(tmp_path, _HPC)
    plan = plan_of(cli, "run.sh", cwd=tmp_path)
    assert any("console script declared in setup.py" in n for n in plan["notes"]), plan["notes"]
    assert fact(plan, "dist.nodes").value == 2
    assert fact(plan, "dist.devices_per_node").value == 4
    assert fact(plan, "dist.world_size").value == 8
    assert fact(plan, "dist.sharding").value == "ddp"  # the fit: section's trainer, read through the subcommand


def test_twin_undeclared_name_under_srun_is_not_a_job(cli, tmp_path):
    write(tmp_path, {**_HPC, "run.sh": _HPC["run.sh"].replace("srun pythpc", "srun otherhpc")})
    res = cli("audit", "--emit-plan", "json", "run.sh", cwd=tmp_path)
    assert res.code == 3 and "no launch line found" in res.err, (res.code, res.err)


def test_subcommand_section_only_for_a_config_that_holds_it() -> None:
    from preflight.adapters.lightning_cli import _subcommand_section

    from preflight.loaders import LoadedConfig

    wrapped = LoadedConfig("x.yaml", "yaml", {"fit": {"trainer": {"devices": 4}}}, {("fit",): 1, ("fit", "trainer"): 2,
                                                                                   ("fit", "trainer", "devices"): 3})
    got = _subcommand_section(wrapped, ["--config", "x.yaml", "fit"])
    assert got.data == {"trainer": {"devices": 4}} and got.line_of(("trainer", "devices")) == 3
    assert _subcommand_section(wrapped, ["--config", "x.yaml"]) is wrapped  # no subcommand on the line
    flat = LoadedConfig("y.yaml", "yaml", {"trainer": {"devices": 2}, "fit": {"trainer": {}}}, {})
    assert _subcommand_section(flat, ["fit"]) is flat  # a flat config (given after the subcommand) stays as it is
