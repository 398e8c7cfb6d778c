"""Issue 15, branch jobs62: shapes of set 31 (fixtures of our own that copy the real code's shape; each with a
twin that must stay unknown).

- an option rewritten inside a function that receives the parsed options (jeonsworld/ViT-pytorch @ 460a162
  ``train.py:147``: ``args.train_batch_size = args.train_batch_size // args.gradient_accumulation_steps`` in
  ``train(args, model)`` before ``get_loader(args)`` builds the loaders in ``utils/data_utils.py:51-60``);
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# ViT-pytorch's shape: argparse in main(), train(args) rewrites the per-step batch, a helper module builds the
# training loader from the rewritten option (and, in the real code, a test loader from eval_batch_size)
_VIT_TRAIN = """\
    import argparse

    import torch
    from utils.data_utils import get_loader


    def train(args, model):
        {rewrite}
        train_loader = get_loader(args)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for step, batch in enumerate(train_loader):
            x, y = batch
            loss = model(x).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--train_batch_size", default=512, type=int)
        parser.add_argument("--gradient_accumulation_steps", type=int, default=1)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 4)
        train(args, model)


    if __name__ == "__main__":
        main()
"""
_VIT_DATA = """\
    from torch.utils.data import DataLoader, RandomSampler


    def get_loader(args):
        trainset = list(range(100))
        return DataLoader(trainset, sampler=RandomSampler(trainset), batch_size=args.train_batch_size,
                          num_workers=4, pin_memory=True)
"""


def _vit(cli, tmp_path, rewrite: str, *launch: str) -> dict:
    write(tmp_path, {"train.py": _VIT_TRAIN.replace("{rewrite}", rewrite), "utils/__init__.py": "",
                     "utils/data_utils.py": _VIT_DATA})
    return plan_of(cli, "train.py", "--", *launch, cwd=tmp_path)


_DIVIDE = "args.train_batch_size = args.train_batch_size // args.gradient_accumulation_steps"


def test_option_rewritten_in_a_function_given_the_options_is_the_quotient(cli, tmp_path):
    plan = _vit(cli, tmp_path, _DIVIDE, "--gradient_accumulation_steps", "4")
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 128 and micro.confidence == "medium", micro
    assert micro.source.path == "train.py" and micro.source.line == 8, micro.source


def test_option_rewritten_from_the_launch_line_value(cli, tmp_path):
    plan = _vit(cli, tmp_path, _DIVIDE, "--train_batch_size", "96", "--gradient_accumulation_steps", "3")
    assert fact(plan, "batch.micro").value == 32


def test_twin_option_also_set_on_another_line_stays_unknown(cli, tmp_path):
    # a second store of the option elsewhere: which value the rewrite reads is not known
    plan = _vit(cli, tmp_path, _DIVIDE + "\n        if args.gradient_accumulation_steps > 2:\n"
                               "            args.train_batch_size = 7", "--gradient_accumulation_steps", "4")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (128, 512), micro


def test_twin_rewrite_by_true_division_stays_unknown(cli, tmp_path):
    plan = _vit(cli, tmp_path, "args.train_batch_size = args.train_batch_size / args.gradient_accumulation_steps",
                "--gradient_accumulation_steps", "4")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 512, micro


def test_twin_rewrite_from_a_run_time_value_stays_unknown(cli, tmp_path):
    plan = _vit(cli, tmp_path, "args.train_batch_size = args.train_batch_size // torch.cuda.device_count()")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 512, micro


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


def test_twin_undeclared_name_is_not_a_job(cli, tmp_path):
    # the name is declared nowhere in the project: nothing is audited as its script
    plan = _console(cli, tmp_path, {"pyproject.toml": _POETRY}, "poetry", "run", "yolo-test", "--batch", "4")
    assert not any(i["path"].endswith(".py") for i in plan["inputs"]), plan["inputs"]
    assert fact(plan, "batch.micro") is None


def test_twin_runner_with_its_own_options_is_left_alone(cli, tmp_path):
    # ``uv run --with X NAME``: the runner's options are not read, so the line is not rewritten
    plan = _console(cli, tmp_path, {"pyproject.toml": _POETRY}, "uv", "run", "--with", "rich", "yolo-train")
    assert not any(i["path"].endswith(".py") for i in plan["inputs"]), plan["inputs"]


def test_twin_console_script_whose_module_is_missing(cli, tmp_path):
    packaging = {"pyproject.toml": '[project]\nname = "y"\n[project.scripts]\nyolo-train = "elsewhere.train:run"\n'}
    plan = _console(cli, tmp_path, packaging, "yolo-train", "--batch", "4")
    assert fact(plan, "batch.micro") is None


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


# ViT-pytorch's process setup (train.py:281,299-307): ``--local_rank`` default -1, a process group only on the
# other side of ``if args.local_rank == -1``; started with plain python
_RANK = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--local_rank", type=int, default={default})
        parser.add_argument("--batch", type=int, default=32)
        args = parser.parse_args()
        {setup}
        model = torch.nn.Linear(4, 4)
        if args.local_rank != -1:
            model = torch.nn.parallel.DistributedDataParallel(model)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in DataLoader(list(range(64)), batch_size=args.batch):
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""
_RANK_SETUP = """if args.local_rank == -1:
            device = torch.device("cuda")
        else:
            torch.cuda.set_device(args.local_rank)
            torch.distributed.init_process_group(backend="nccl")"""


def _rank(cli, tmp_path, *launch: str, default: str = "-1", setup: str = _RANK_SETUP) -> dict:
    write(tmp_path, {"train.py": _RANK.replace("{default}", default).replace("{setup}", setup)})
    return plan_of(cli, "train.py", "--", "python", "train.py", *launch, cwd=tmp_path)


def test_local_rank_left_at_minus_one_is_one_process(cli, tmp_path):
    plan = _rank(cli, tmp_path, "--batch", "16")
    world = fact(plan, "dist.world_size")
    assert world is not None and world.value == 1 and world.confidence == "medium", world
    assert "--local_rank" in world.source.detail, world.source
    assert fact(plan, "dist.nodes").value == 1
    assert fact(plan, "batch.global").value == 16


def test_local_rank_guard_written_as_not_equal(cli, tmp_path):
    setup = ('if args.local_rank != -1:\n            torch.distributed.init_process_group(backend="nccl")')
    plan = _rank(cli, tmp_path, setup=setup)
    assert fact(plan, "dist.world_size").value == 1


def test_twin_local_rank_given_on_the_line_is_not_concluded(cli, tmp_path):
    plan = _rank(cli, tmp_path, "--local_rank", "0")
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 1, world


def test_twin_process_group_outside_the_guard_is_not_concluded(cli, tmp_path):
    plan = _rank(cli, tmp_path, setup='torch.distributed.init_process_group(backend="nccl")')
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 1, world


def test_twin_local_rank_default_not_minus_one_is_not_concluded(cli, tmp_path):
    plan = _rank(cli, tmp_path, default="0")
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 1, world


# ViT-pytorch utils/data_utils.py:51-60: the test loader (``args.eval_batch_size``) beside the training loader
_VIT_DATA_TWO = """\
    from torch.utils.data import DataLoader, RandomSampler, SequentialSampler


    def get_loader(args):
        trainset = list(range(100))
        testset = list(range(10))
        train_loader = DataLoader(trainset, sampler=RandomSampler(trainset), batch_size=args.train_batch_size,
                                  num_workers=4, pin_memory=True)
        test_loader = DataLoader(testset, sampler=SequentialSampler(testset), batch_size=args.{other},
                                 num_workers=4, pin_memory=True)
        return train_loader
"""


def _vit_two(cli, tmp_path, other: str, *launch: str) -> dict:
    train = _VIT_TRAIN.replace("{rewrite}", _DIVIDE).replace(
        '    parser.add_argument("--gradient_accumulation_steps"',
        f'    parser.add_argument("--{other}", default=64, type=int)\n'
        '        parser.add_argument("--gradient_accumulation_steps"')
    write(tmp_path, {"train.py": train, "utils/__init__.py": "",
                     "utils/data_utils.py": _VIT_DATA_TWO.replace("{other}", other)})
    return plan_of(cli, "train.py", "--", *launch, cwd=tmp_path)


def test_training_loader_wins_over_the_evaluation_loader(cli, tmp_path):
    plan = _vit_two(cli, tmp_path, "eval_batch_size")
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 512 and micro.source.key == "args.train_batch_size", micro


def test_twin_two_training_shaped_loaders_that_disagree_stay_unknown(cli, tmp_path):
    plan = _vit_two(cli, tmp_path, "aux_batch_size")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (512, 64), micro


# melgan's config/default.yaml (seungwonpark/melgan @ aca5990): five documents with disjoint top-level keys, read by
# utils/hparams.py:16-23 with ``yaml.load_all`` into one dict
_MELGAN_YAML = """\
data:
  train: ''
---
train:
  num_workers: 32
  batch_size: 16
  optimizer: 'adam'
---
audio:
  n_mel_channels: 80
"""


def test_yaml_documents_with_disjoint_keys_read_as_one_mapping():
    from preflight.loaders import LoadedConfig, load_config_text

    cfg = load_config_text(_MELGAN_YAML, "yaml", "default.yaml")
    assert isinstance(cfg, LoadedConfig)
    assert cfg.data == {"data": {"train": ""}, "train": {"num_workers": 32, "batch_size": 16, "optimizer": "adam"},
                        "audio": {"n_mel_channels": 80}}
    assert cfg.line_of(("train", "batch_size")) == 6 and cfg.line_of(("audio", "n_mel_channels")) == 10
    assert any("3 YAML documents" in n and "one mapping" in n for n in cfg.notes), cfg.notes


def test_twin_yaml_documents_sharing_keys_read_the_first_only():
    # Kubernetes manifests: every document has kind/metadata; merging them would mix resources
    from preflight.loaders import LoadedConfig, load_config_text

    text = "kind: ConfigMap\nmetadata: {name: a}\n---\nkind: Job\nmetadata: {name: b}\n"
    cfg = load_config_text(text, "yaml", "m.yaml")
    assert isinstance(cfg, LoadedConfig) and cfg.data == {"kind": "ConfigMap", "metadata": {"name": "a"}}
    assert any("reads the first" in n for n in cfg.notes), cfg.notes
    listed = load_config_text("- 1\n---\nb: 2\n", "yaml", "l.yaml")
    assert isinstance(listed, LoadedConfig) and listed.data == [1]


_MELGAN_HPARAMS = """\
    import yaml


    def load_hparam(filename):
        stream = open(filename, 'r')
        docs = yaml.load_all(stream, Loader=yaml.Loader)
        hparam_dict = dict()
        for doc in docs:
            for k, v in doc.items():
                hparam_dict[k] = v
        return hparam_dict


    class Dotdict(dict):
        __getattr__ = dict.__getitem__
        __setattr__ = dict.__setitem__

        def __init__(self, dct=None):
            dct = dict() if not dct else dct
            for key, value in dct.items():
                if hasattr(value, 'keys'):
                    value = Dotdict(value)
                self[key] = value


    class HParam(Dotdict):

        def __init__(self, file):
            super(Dotdict, self).__init__()
            hp_dict = {loader}
            hp_dotdict = Dotdict(hp_dict)
            for k, v in hp_dotdict.items():
                setattr(self, k, v)

        __getattr__ = Dotdict.__getitem__
        __setattr__ = Dotdict.__setitem__
"""
_MELGAN_TRAINER = """\
    import argparse

    import torch
    from torch.utils.data import DataLoader

    from utils.hparams import HParam

    if __name__ == '__main__':
        parser = argparse.ArgumentParser()
        parser.add_argument('-c', '--config', type=str, required=True)
        args = parser.parse_args()
        hp = HParam(args.config)
        loader = DataLoader(list(range(64)), batch_size=hp.train.batch_size, shuffle=True,
                            num_workers=hp.train.num_workers, pin_memory=True)
        model = torch.nn.Linear(4, 4)
        optim = torch.optim.Adam(model.parameters())
        for x in loader:
            optim.zero_grad()
            model(x).sum().backward()
            optim.step()
"""


def _melgan(cli, tmp_path, loader: str = "load_hparam(file)") -> dict:
    write(tmp_path, {"utils/__init__.py": "", "utils/hparams.py": _MELGAN_HPARAMS.replace("{loader}", loader),
                     "trainer.py": _MELGAN_TRAINER})
    (tmp_path / "config").mkdir()
    (tmp_path / "config/default.yaml").write_text(_MELGAN_YAML)
    return plan_of(cli, "trainer.py", "--", "-c", "config/default.yaml", cwd=tmp_path)


def test_config_class_loading_through_a_helper_over_yaml_documents(cli, tmp_path):
    plan = _melgan(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 16, micro
    assert micro.source.path == "config/default.yaml" and micro.source.line == 6, micro.source
    assert fact(plan, "data.num_workers").value == 32


def test_twin_helper_that_reads_no_file_is_not_the_config(cli, tmp_path):
    plan = _melgan(cli, tmp_path, loader="dict(train=dict(batch_size=3))")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 16, micro


# pytorch_sac's Hydra 0.11 app (denisyarats/pytorch_sac @ 81c5b53 train.py:152, config/train.yaml,
# config/agent/sac.yaml): config_path names the primary file, the group file's ``agent:`` merges at the top level,
# and the primary config's ``hydra: name:`` is a key hydra-core 1.x no longer has
_SAC_TRAIN_YAML = """\
defaults:
    - agent: sac

env: cheetah_run
device: cuda

hydra:
    name: ${env}
"""
_SAC_AGENT_YAML = """\
agent:
  name: sac
  params:
    batch_size: 1024
    num_workers: 2
"""
_SAC_SCRIPT = """\
    import hydra
    import torch
    from torch.utils.data import DataLoader


    @hydra.main({main})
    def main(cfg):
        loader = DataLoader(list(range(64)), batch_size=cfg.agent.params.batch_size,
                            num_workers=cfg.agent.params.num_workers)
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.Adam(model.parameters())
        for x in loader:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == '__main__':
        main()
"""


def _sac(cli, tmp_path, main: str, *launch: str) -> dict:
    write(tmp_path, {"train.py": _SAC_SCRIPT.replace("{main}", main)})
    (tmp_path / "config/agent").mkdir(parents=True)
    (tmp_path / "config/train.yaml").write_text(_SAC_TRAIN_YAML)
    (tmp_path / "config/agent/sac.yaml").write_text(_SAC_AGENT_YAML)
    return plan_of(cli, "train.py", "--", *launch, cwd=tmp_path)


def test_hydra_0_11_app_composes_group_files_at_the_top_level(cli, tmp_path):
    plan = _sac(cli, tmp_path, "config_path='config/train.yaml', strict=True", "env=cheetah_run")
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 1024, micro
    assert micro.source.path == "config/agent/sac.yaml" and micro.source.line == 4, micro.source
    assert any("before 1.0" in n for n in plan["notes"]), plan["notes"]


def test_twin_hydra_1_app_keeps_the_group_package(cli, tmp_path):
    # Hydra >= 1.1: ``agent/sac.yaml`` sits under ``agent``, so cfg.agent.params does not exist (agent.agent.params);
    # the primary config's stale ``hydra.name`` no longer stops the audit (exit 3)
    plan = _sac(cli, tmp_path, "config_path='config', config_name='train', version_base='1.1'", "env=cheetah_run")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 1024, micro


# Chinese-CLIP's loader builder (OFA-Sys/Chinese-CLIP @ 31863c7 cn_clip/training/data.py:140-200): one function
# builds the training and the validation loader, the split chosen by a boolean parameter
_CLIP_DATA = """\
    from torch.utils.data import DataLoader


    def get_dataset(args, {param}, epoch_id=0):
        dataset = list(range(100))
        batch_size = args.batch_size if {param} else args.valid_batch_size
        return DataLoader(dataset, batch_size=batch_size, pin_memory=False,
                          num_workers=args.num_workers if {param} else args.valid_num_workers)


    def get_data(args, epoch_id=0):
        data = {}
        data["train"] = get_dataset(args, {param}={first}, epoch_id=epoch_id)
        data["val"] = get_dataset(args, {param}=False, epoch_id=epoch_id)
        return data
"""
_CLIP_MAIN = """\
    import argparse

    import torch
    from data import get_data


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch-size", type=int, default=64)
        parser.add_argument("--valid-batch-size", type=int, default=64)
        parser.add_argument("--num-workers", type=int, default=4)
        parser.add_argument("--valid-num-workers", type=int, default=1)
        args = parser.parse_args()
        data = get_data(args)
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.AdamW(model.parameters())
        for x in data["train"]:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def _clip(cli, tmp_path, param: str = "is_train", first: str = "True") -> dict:
    write(tmp_path, {"data.py": _CLIP_DATA.replace("{param}", param).replace("{first}", first),
                     "main.py": _CLIP_MAIN})
    return plan_of(cli, "main.py", "--", "--batch-size=96", "--valid-batch-size=8", cwd=tmp_path)


def test_loader_builder_split_by_a_boolean_takes_the_training_arm(cli, tmp_path):
    plan = _clip(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 96 and micro.source.key == "--batch-size", micro
    workers = fact(plan, "data.num_workers")
    assert workers is not None and workers.value == 4, workers


def test_twin_split_parameter_not_named_for_training_stays_unknown(cli, tmp_path):
    plan = _clip(cli, tmp_path, param="flag")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (96, 8), micro


def test_twin_split_passed_a_run_time_value_stays_unknown(cli, tmp_path):
    plan = _clip(cli, tmp_path, first="args.batch_size > 0")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value not in (96, 8), micro


# CURL's replay buffer (MishaLaskin/curl @ 8416d6e train.py:204-211, utils.py:70-128): the buffer is built with
# the batch it samples per update
_CURL = """\
    import argparse

    import numpy as np
    import torch


    class {cls}:
        def __init__(self, capacity, batch_size, device):
            self.capacity = capacity
            self.batch_size = batch_size
            self.obses = np.zeros((capacity, 4), dtype=np.float32)

        def sample(self):
            idxs = np.random.randint(0, self.capacity, size=self.batch_size)
            return torch.as_tensor(self.obses[idxs])


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--batch_size", type=int, default=32)
        args = parser.parse_args()
        buffer = {cls}(capacity=1000, batch_size=args.batch_size, device="cuda")
        model = torch.nn.Linear(4, 4)
        optimizer = torch.optim.Adam(model.parameters())
        for step in range(100):
            obs = buffer.sample()
            optimizer.zero_grad()
            model(obs).sum().backward()
            optimizer.step()


    if __name__ == "__main__":
        main()
"""


def test_replay_buffer_batch_is_the_micro_batch(cli, tmp_path):
    write(tmp_path, {"train.py": _CURL.replace("{cls}", "ReplayBuffer")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--batch_size", "128", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 128 and micro.source.key == "--batch_size", micro


def test_twin_other_class_with_a_batch_keyword_is_not_read(cli, tmp_path):
    write(tmp_path, {"train.py": _CURL.replace("{cls}", "Prefetcher")})
    plan = plan_of(cli, "train.py", "--", "python", "train.py", "--batch_size", "128", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 128, micro
