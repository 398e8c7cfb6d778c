"""The VITS family's configuration (issue 15, the jobs48 round): ``hps = utils.get_hparams()`` parsing its own
``-c`` option and returning the JSON file as an attribute dict (``HParams``), handed to the training function by
``mp.spawn``, its keys read by the loader and by ``autocast(enabled=...)`` imported by name. Minimal fixtures of
our own citing the repositories they copy the shape of; each with twins that must stay empty."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, write

# jaywalnut310/vits @ 2e561ba58618d021b5b8323d3765880f7e0ecfdb utils.py:144-171,229-252 (jaywalnut310/glow-tts and
# myshell-ai/MeloTTS ``melo/utils.py`` the same)
UTILS = """\
    import argparse
    import json
    import os


    class HParams():
        def __init__(self, **kwargs):
            for k, v in kwargs.items():
                if type(v) == dict:
                    v = HParams(**v)
                self[k] = v

        def __getitem__(self, key):
            return getattr(self, key)

        def __setitem__(self, key, value):
            return setattr(self, key, value)


    def get_hparams(init=True):
        parser = argparse.ArgumentParser()
        parser.add_argument("-c", "--config", type=str, default="./configs/base.json")
        parser.add_argument("-m", "--model", type=str, required=True)
        args = parser.parse_args()
        model_dir = os.path.join("./logs", args.model)
        config_path = args.config
        config_save_path = os.path.join(model_dir, "config.json")
        if init:
            with open(config_path, "r") as f:
                data = f.read()
            with open(config_save_path, "w") as f:
                f.write(data)
        else:
            with open(config_save_path, "r") as f:
                data = f.read()
        config = json.loads(data)
        hparams = HParams(**config)
        hparams.model_dir = model_dir
        return hparams
    """
# vits train.py:14,46-53,66-80,113,142: ``mp.spawn(run, nprocs=n_gpus, args=(n_gpus, hps,))``, ``from
# torch.cuda.amp import autocast, GradScaler``, ``autocast(enabled=hps.train.fp16_run)``
TRAIN = """\
    import torch
    import torch.multiprocessing as mp
    from torch.cuda.amp import GradScaler, autocast
    from torch.utils.data import DataLoader

    import utils


    def main():
        n_gpus = torch.cuda.device_count()
        hps = utils.get_hparams()
        mp.spawn(run, nprocs=n_gpus, args=(n_gpus, hps,))


    def run(rank, n_gpus, hps):
        model = torch.nn.Linear(4, 4).cuda(rank)
        optimizer = torch.optim.AdamW(model.parameters(), hps.train.learning_rate)
        loader = DataLoader([], batch_size=hps.train.batch_size, num_workers=2)
        scaler = GradScaler(enabled=hps.train.fp16_run)
        for x in loader:
            with autocast(enabled=hps.train.fp16_run):
                loss = model(x).sum()
            optimizer.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()


    if __name__ == "__main__":
        main()
    """
BASE = '{"train": {"batch_size": 16, "fp16_run": true, "learning_rate": 0.0002}}\n'
OTHER = '{"train": {"batch_size": 4, "fp16_run": false, "learning_rate": 0.0002}}\n'


def _plan(cli, tmp_path: Path, *line: str, utils: str = UTILS, train: str = TRAIN) -> dict:
    write(tmp_path, {"train.py": train, "utils.py": utils, "configs/base.json": BASE, "configs/other.json": OTHER})
    return plan_of(cli, "train.py", "--", *line, cwd=tmp_path)


def _from_config(plan: dict, field: str):
    got = fact(plan, field)
    return got if got is not None and (got.source.path or "").startswith("configs/") else None


def test_the_json_the_line_names_is_the_configuration(cli, tmp_path: Path) -> None:
    plan = _plan(cli, tmp_path, "-c", "configs/base.json", "-m", "base")
    batch = _from_config(plan, "batch.micro")
    assert batch is not None and batch.value == 16 and batch.source.path == "configs/base.json"
    precision = _from_config(plan, "precision.mode")
    assert precision is not None and precision.value == "amp_fp16"


def test_a_unique_prefix_of_the_option_names_the_file(cli, tmp_path: Path) -> None:
    # myshell-ai/MeloTTS melo/train.sh:11 ``train.py --c $CONFIG``: argparse reads ``--c`` as ``--config``
    plan = _plan(cli, tmp_path, "--c", "configs/other.json", "-m", "other")
    batch = _from_config(plan, "batch.micro")
    assert batch is not None and batch.value == 4 and batch.source.path == "configs/other.json"
    precision = _from_config(plan, "precision.mode")
    assert precision is not None and precision.value == "fp32"


def test_without_the_option_its_default_file_is_read(cli, tmp_path: Path) -> None:
    batch = _from_config(_plan(cli, tmp_path, "-m", "base"), "batch.micro")
    assert batch is not None and batch.value == 16


def test_a_class_computing_its_attributes_is_no_attribute_dict(cli, tmp_path: Path) -> None:
    computed = UTILS.replace("    def __getitem__(self, key):",
                             "    def __getattr__(self, key):\n        return 1\n\n    def __getitem__(self, key):")
    plan = _plan(cli, tmp_path, "-c", "configs/base.json", "-m", "base", utils=computed)
    assert _from_config(plan, "batch.micro") is None and _from_config(plan, "precision.mode") is None


def test_a_path_no_option_names_is_not_read(cli, tmp_path: Path) -> None:
    fixed = UTILS.replace("config_path = args.config", "config_path = os.path.join(model_dir, 'config.json')")
    plan = _plan(cli, tmp_path, "-c", "configs/base.json", "-m", "base", utils=fixed)
    assert _from_config(plan, "batch.micro") is None


def test_spawn_arguments_not_written_out_are_not_followed(cli, tmp_path: Path) -> None:
    packed = TRAIN.replace("mp.spawn(run, nprocs=n_gpus, args=(n_gpus, hps,))",
                           "given = (n_gpus, hps)\n    mp.spawn(run, nprocs=n_gpus, args=given)")
    plan = _plan(cli, tmp_path, "-c", "configs/base.json", "-m", "base", train=packed)
    assert _from_config(plan, "batch.micro") is None


# jaywalnut310/vits train.py:67-76 and data_utils.py:363-365 (myshell-ai/MeloTTS melo/train.py:70-87 the same): the
# training loader's batches come from a project batch sampler given the batch size by position, whose ``__iter__``
# cuts ``ids[j*self.batch_size:(j+1)*self.batch_size]``
DATA_UTILS = """\
    import torch


    class DistributedBucketSampler(torch.utils.data.distributed.DistributedSampler):
        def __init__(self, dataset, batch_size, boundaries, num_replicas=None, rank=None, shuffle=True):
            super().__init__(dataset, num_replicas=num_replicas, rank=rank, shuffle=shuffle)
            self.batch_size = batch_size
            self.boundaries = boundaries

        def __iter__(self):
            ids = list(range(100))
            batches = []
            for j in range(len(ids) // self.batch_size):
                batches.append(ids[j*self.batch_size:(j+1)*self.batch_size])
            return iter(batches)
    """
BUCKETED = TRAIN.replace("from torch.utils.data import DataLoader\n",
                         "from torch.utils.data import DataLoader\n\n    from data_utils import DistributedBucketSampler\n")
BUCKETED = BUCKETED.replace(
    "loader = DataLoader([], batch_size=hps.train.batch_size, num_workers=2)",
    "sampler = DistributedBucketSampler([], hps.train.batch_size, [32, 300], num_replicas=n_gpus, rank=rank)\n"
    "        loader = DataLoader([], num_workers=2, batch_sampler=sampler)")


def test_a_project_batch_sampler_given_the_batch_by_position(cli, tmp_path: Path) -> None:
    write(tmp_path, {"data_utils.py": DATA_UTILS})
    plan = _plan(cli, tmp_path, "-c", "configs/base.json", "-m", "base", train=BUCKETED)
    batch = _from_config(plan, "batch.micro")
    assert batch is not None and batch.value == 16 and batch.source.path == "configs/base.json"


def test_a_sampler_cutting_other_batches_gives_no_batch(cli, tmp_path: Path) -> None:
    doubled = DATA_UTILS.replace("ids[j*self.batch_size:(j+1)*self.batch_size]",
                                 "ids[j*self.batch_size:(j+2)*self.batch_size]")
    write(tmp_path, {"data_utils.py": doubled})
    plan = _plan(cli, tmp_path, "-c", "configs/base.json", "-m", "base", train=BUCKETED)
    assert _from_config(plan, "batch.micro") is None
