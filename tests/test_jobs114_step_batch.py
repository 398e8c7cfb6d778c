"""Issue 15, branch jobs114: a plain ``batch_size`` key the code multiplies by an accumulation count into
DeepSpeed's ``train_batch_size`` is one micro-step's batch over all processes (adapters/config_key_batch.py
``_step_product``, adapters/config_key_step.py), and a DeepSpeed ``"enabled": "true"`` string
(adapters/deepspeed.py). Fixtures of our own copying real shapes: code that fills an ``"auto"`` DeepSpeed config
from its own config (``ds_config["train_batch_size"] = config.batch_size * gradient_accum_steps  # Total effective
batch size``; ``_ds_cfg_init["train_batch_size"] = config.batch_size * config.gradient_accumulation_steps``), the
batch split over the processes for the loader; mosaicml examples' ``"bf16": {"enabled": "true"}``. Twins: a
product with a process count in it, a key also handed to a per-process name, a product bound to another name, a
``"false"`` string."""

from __future__ import annotations

import json

from plan_helpers import fact, plan_of, write
from preflight.adapters.config_key_batch import plain_batch_use, plain_workers_use

TRAINER = """\
import deepspeed
import torch


class Trainer:
    def __init__(self, config, num_processes):
        self.config = config
        self.num_processes = num_processes

    def loader(self, data):
        data_config = self.config.data_args
        return torch.utils.data.DataLoader(data, batch_size=data_config.batch_size // self.num_processes,
                                           num_workers=data_config.workers)

    def initialize_deepspeed(self, ds_config, model):
        if ds_config["gradient_accumulation_steps"] == "auto":
            ds_config["gradient_accumulation_steps"] = self.config.train_args.gradient_accumulation_steps
        if ds_config["train_micro_batch_size_per_gpu"] == "auto":
            data_args = self.config.data_args
            ds_config["train_micro_batch_size_per_gpu"] = data_args.batch_size // self.num_processes
            ds_config["train_batch_size"] = data_args.batch_size * ds_config["gradient_accumulation_steps"]
        return deepspeed.initialize(model=model, config=ds_config)
"""


def _use(text: str):
    return plain_batch_use([("trainers/base.py", text)], "batch_size", "data_args")


def test_times_the_accumulation_into_train_batch_size_is_the_step_batch():
    got = _use(TRAINER)
    assert got is not None and got[0] == "batch.step" and got[2] == "gradient_accumulation_steps", got
    assert got[1].startswith("trainers/base.py:")


def test_twin_product_with_a_process_count_is_not_the_step_batch():
    text = TRAINER.replace('data_args.batch_size * ds_config["gradient_accumulation_steps"]',
                           'data_args.batch_size * ds_config["gradient_accumulation_steps"] * self.num_processes')
    got = _use(text)
    assert got is None or got[0] != "batch.step"


def test_twin_key_also_per_process_stays_per_process():
    # the single-process shape: the key is the micro batch and the product is the step's batch of one process
    text = TRAINER.replace("data_args.batch_size // self.num_processes", "data_args.batch_size") \
        .replace("batch_size=data_config.batch_size // self.num_processes", "batch_size=32")
    got = _use(text)
    assert got is not None and got[0] == "batch.micro", got


def test_twin_product_bound_to_another_name_says_nothing_of_the_step():
    text = TRAINER.replace('ds_config["train_batch_size"] = data_args.batch_size *',
                           'samples_seen = data_args.batch_size *')
    got = _use(text)
    assert got is None or got[0] != "batch.step"


TRAIN = """\
import argparse

import torch
import yaml
from attrdict import AttrDict

from trainers.base import Trainer

parser = argparse.ArgumentParser()
parser.add_argument("--config", type=str)
parser.add_argument("--deepspeed_config", type=str)
parser.add_argument("--local_rank", type=int, default=-1)
args = parser.parse_args()
config = AttrDict(yaml.safe_load(open(args.config)))
ds_config = __import__("json").load(open(args.deepspeed_config))
model = torch.nn.Linear(4, 4)
trainer = Trainer(config, torch.distributed.get_world_size())
engine, optimizer, _, _ = trainer.initialize_deepspeed(ds_config, model)
for x in trainer.loader(list(range(1000))):
    loss = engine(x).sum()
    engine.backward(loss)
    engine.step()
"""
YAML = """\
train_args:
  num_epochs: 2
  gradient_accumulation_steps: 4
data_args:
  workers: 4
  batch_size: 1024
"""
DS = {"train_batch_size": "auto", "gradient_accumulation_steps": "auto", "train_micro_batch_size_per_gpu": "auto",
      "bf16": {"enabled": "true"}, "zero_optimization": {"stage": 2}}


def _plan(cli, tmp_path, ds=DS, yaml_text=YAML):
    write(tmp_path, {"train.py": TRAIN, "trainers/__init__.py": "", "trainers/base.py": TRAINER,
                     "configs/mlm.yaml": yaml_text,
                     "run.sh": "deepspeed --num_gpus=8 train.py --config=configs/mlm.yaml "
                               "--deepspeed_config=configs/ds.json\n"})
    (tmp_path / "configs" / "ds.json").write_text(json.dumps(ds, indent=2))
    return plan_of(cli, "run.sh", cwd=tmp_path)


def test_step_batch_gives_global_accumulation_and_micro(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    assert fact(plan, "batch.global").value == 4096
    assert fact(plan, "batch.grad_accum").value == 4
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 128, micro


def test_twin_accumulation_count_not_in_the_config_leaves_the_global_batch_unknown(cli, tmp_path):
    plan = _plan(cli, tmp_path, yaml_text=YAML.replace("  gradient_accumulation_steps: 4\n", ""))
    glob = fact(plan, "batch.global")
    assert glob is None or glob.value != 1024


def test_plain_workers_key_handed_to_a_loader_is_the_loader_workers(cli, tmp_path):
    got = fact(_plan(cli, tmp_path), "data.num_workers")
    assert got is not None and got.value == 4 and got.source.key == "data_args.workers", got


def test_plain_workers_use_reads_a_local_name_bound_once():
    text = 'def f(config, ds):\n    w = config["data"]["workers"]\n' \
           '    return torch.utils.data.DataLoader(ds, num_workers=w)\n'
    assert plain_workers_use([("t.py", text)], "workers", "data") == "t.py:3"


def test_twin_workers_of_another_use_say_nothing():
    # Ray / process-pool workers, an evaluation loader, a product: no evidence of the training loader's workers
    for text in ('def f(cfg):\n    return multiprocessing.Pool(processes=cfg["data"]["workers"])\n',
                 'def f(cfg, ds):\n    val_loader = DataLoader(ds, num_workers=cfg["data"]["workers"])\n',
                 'def f(cfg, ds):\n    return DataLoader(ds, num_workers=cfg["data"]["workers"] * 2)\n',
                 'def f(cfg, ds):\n    return DataLoader(ds, num_workers=cfg["model"]["workers"])\n'):
        assert plain_workers_use([("t.py", text)], "workers", "data") is None, text


def test_deepspeed_enabled_true_string_is_enabled(cli, tmp_path):
    got = fact(_plan(cli, tmp_path), "precision.mode")
    assert got is not None and got.value == "bf16" and got.confidence == "medium", got


def test_twin_deepspeed_enabled_false_string_is_unknown(cli, tmp_path):
    got = fact(_plan(cli, tmp_path, ds={**DS, "bf16": {"enabled": "false"}}), "precision.mode")
    assert got is None or got.value not in ("bf16", "fp32") or got.adapter != "deepspeed"
