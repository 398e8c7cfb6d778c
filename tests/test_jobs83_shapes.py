"""Shapes of set 38's misses read by jobs83 (issue 15), each with a twin that must stay silent. Fixtures of our
own copying the shapes of yisol/IDM-VTON ``train_xl.sh`` (``CUDA_VISIBLE_DEVICES=0,1,2,3 accelerate launch``
without a config), guanjq/targetdiff ``scripts/train_diffusion.py:49`` (``misc.load_config(args.config)``
returning ``EasyDict(yaml.safe_load(f))``), NVlabs/FourCastNet ``utils/YParams.py`` (one section of a YAML
file as attributes), ``train.py:272`` (``amp.autocast(self.params.enable_amp)`` with ``import torch.cuda.amp as
amp``), ``networks/afnonet.py:17`` (an unused ``checkpoint_sequential`` import) and
``utils/data_loader_multifiles.py:66-72`` (``pin_memory=torch.cuda.is_available()``), and LAION-AI/CLAP
``training/data.py:841-887`` (``get_dataset_fn(args.dataset_type)(args, ...)``)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

ACCEL_TRAIN = """\
    import argparse
    import torch
    from accelerate import Accelerator

    p = argparse.ArgumentParser()
    p.add_argument("--bs", type=int, default=2)
    args = p.parse_args()
    acc = Accelerator()
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.AdamW(model.parameters())
    loader = torch.utils.data.DataLoader([], batch_size=args.bs)
    model, opt, loader = acc.prepare(model, opt, loader)
    for x in loader:
        loss = model(x).sum()
        acc.backward(loss)
        opt.step()
"""


def test_accelerate_without_config_counts_visible_devices_at_low(cli, tmp_path):
    write(tmp_path, {"train.py": ACCEL_TRAIN,
                     "train.sh": "CUDA_VISIBLE_DEVICES=0,1,2,3 accelerate launch train.py --bs 6\n"})
    plan = plan_of(cli, "train.sh", cwd=tmp_path)
    for field, value in (("dist.world_size", 4), ("dist.devices_per_node", 4), ("dist.nodes", 1),
                         ("dist.sharding", "ddp")):
        got = fact(plan, field)
        assert got is not None and got.value == value and got.confidence == "low", field
        assert "default accelerate config" in got.source.detail or field == "dist.sharding"


def test_accelerate_without_config_and_devices_says_one_machine_only(cli, tmp_path):
    write(tmp_path, {"train.py": ACCEL_TRAIN, "train.sh": "accelerate launch train.py --bs 6\n"})
    plan = plan_of(cli, "train.sh", cwd=tmp_path)
    nodes = fact(plan, "dist.nodes")
    assert nodes is not None and nodes.value == 1 and nodes.confidence == "low"
    assert fact(plan, "dist.world_size") is None


def test_accelerate_with_a_config_file_is_not_guessed(cli, tmp_path):
    write(tmp_path, {"train.py": ACCEL_TRAIN,
                     "train.sh": "CUDA_VISIBLE_DEVICES=0,1,2,3 accelerate launch --config_file cfg.yaml train.py\n"})
    plan = plan_of(cli, "train.sh", cwd=tmp_path)
    for field in ("dist.world_size", "dist.devices_per_node", "dist.nodes"):
        got = fact(plan, field)
        assert got is None or got.confidence != "low", field


HELPER_TRAIN = """\
    import argparse
    import torch
    import utils.misc as misc

    p = argparse.ArgumentParser()
    p.add_argument("config", type=str)
    args = p.parse_args()
    config = misc.load_config(args.config)
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.Adam(model.parameters())
    loader = torch.utils.data.DataLoader([], batch_size=config.train.batch_size, shuffle=True)
    for x in loader:
        loss = model(x).sum()
        loss.backward()
        opt.step()
"""
LOAD_CONFIG = """\
    import yaml
    from easydict import EasyDict

    def load_config(path):
        with open(path, 'r') as f:
            return EasyDict(yaml.safe_load(f))
"""
CHANGED_CONFIG = """\
    import yaml
    from easydict import EasyDict

    def load_config(path):
        with open(path, 'r') as f:
            cfg = EasyDict(yaml.safe_load(f))
        cfg.train.batch_size = 1
        return cfg
"""


def test_module_helper_returning_an_easydict_of_the_file(cli, tmp_path):
    write(tmp_path, {"train.py": HELPER_TRAIN, "utils/__init__.py": "", "utils/misc.py": LOAD_CONFIG,
                     "configs/training.yml": "train:\n  batch_size: 4\n"})
    plan = plan_of(cli, "train.py", "--", "configs/training.yml", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 4


def test_module_helper_that_changes_what_it_loaded_is_not_the_file(cli, tmp_path):
    write(tmp_path, {"train.py": HELPER_TRAIN, "utils/__init__.py": "", "utils/misc.py": CHANGED_CONFIG,
                     "configs/training.yml": "train:\n  batch_size: 4\n"})
    plan = plan_of(cli, "train.py", "--", "configs/training.yml", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 4


YPARAMS = """\
    from ruamel.yaml import YAML

    class YParams():
      def __init__(self, yaml_filename, config_name):
        self.params = {}
        with open(yaml_filename) as _file:
          for key, val in YAML().load(_file)[config_name].items():
            self.params[key] = val
            self.__setattr__(key, val)

      def __setitem__(self, key, val):
        self.params[key] = val
        self.__setattr__(key, val)
"""
YP_TRAIN = """\
    import argparse
    import os
    import torch
    import torch.cuda.amp as amp
    from utils.YParams import YParams
    from utils.loader import get_data_loader

    class Trainer():
      def __init__(self, params):
        self.params = params
        self.loader = get_data_loader(params)
        self.model = torch.nn.Linear(4, 4)
        self.opt = torch.optim.Adam(self.model.parameters())

      def train(self):
        for x in self.loader:
          with amp.autocast(self.params.enable_amp):
            loss = self.model(x).sum()
          loss.backward()
          self.opt.step()

    if __name__ == '__main__':
      parser = argparse.ArgumentParser()
      parser.add_argument("--yaml_config", default='./config/AFNO.yaml', type=str)
      parser.add_argument("--config", default='default', type=str)
      parser.add_argument("--enable_amp", action='store_true')
      args = parser.parse_args()
      params = YParams(os.path.abspath(args.yaml_config), args.config)
      params['enable_amp'] = args.enable_amp
      Trainer(params).train()
"""
LOADER = """\
    import torch
    from torch.utils.data import DataLoader
    from torch.utils.checkpoint import checkpoint_sequential

    def get_data_loader(params):
      return DataLoader([], batch_size=int(params.batch_size), num_workers=params.num_data_workers,
                        pin_memory=torch.cuda.is_available())
"""
AFNO = """\
full: &FULL
  num_data_workers: 4
  batch_size: 8
afno_backbone:
  <<: *FULL
  batch_size: 64
"""


def _yparams(cli, tmp_path, *line: str, loader: str = LOADER) -> dict:
    write(tmp_path, {"train.py": YP_TRAIN, "utils/__init__.py": "", "utils/YParams.py": YPARAMS,
                     "utils/loader.py": loader, "config/AFNO.yaml": AFNO})
    return plan_of(cli, "train.py", "--", *line, cwd=tmp_path)


def test_yaml_section_class_followed_into_the_trainer_and_its_loader(cli, tmp_path):
    plan = _yparams(cli, tmp_path, "--enable_amp", "--yaml_config=./config/AFNO.yaml", "--config=afno_backbone")
    workers = fact(plan, "data.num_workers")
    assert workers is not None and workers.value == 4
    pin = fact(plan, "data.pin_memory")
    assert pin is not None and pin.value is True and "is_available" in pin.source.detail
    mode = fact(plan, "precision.mode")
    assert mode is not None and mode.value == "amp_fp16" and "enable_amp" in mode.source.detail
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is not None and ckpt.value is False  # the unused checkpoint_sequential import names none


def test_yaml_section_twins(cli, tmp_path):
    used = LOADER + "\n    def run(blocks, x):\n      return checkpoint_sequential(blocks, 2, x)\n"
    plan = _yparams(cli, tmp_path, "--yaml_config=./config/AFNO.yaml", "--config=afno_backbone", loader=used)
    mode = fact(plan, "precision.mode")
    assert mode is not None and mode.value == "fp32"  # --enable_amp not given: autocast(False)
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is None or ckpt.value is not False  # checkpoint_sequential is called: no absence claim
    plan = _yparams(cli, tmp_path, "--yaml_config=./config/AFNO.yaml", "--config=missing_section")
    workers = fact(plan, "data.num_workers")
    assert workers is None or workers.source.kind != "config"


DISPATCH_TRAIN = """\
    import argparse
    import torch
    from data import get_data

    p = argparse.ArgumentParser()
    p.add_argument("--dataset-type", default="toy")
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args()
    data = get_data(args)
    model = torch.nn.Linear(4, 4)
    opt = torch.optim.Adam(model.parameters())
    for x in data["train"]:
        loss = model(x).sum()
        loss.backward()
        opt.step()
"""
DISPATCH_DATA = """\
    import webdataset as wds

    def get_wds_dataset(args, is_train):
        return wds.WebLoader([], batch_size=None, num_workers=args.workers, pin_memory=True)

    def get_other_dataset(args, is_train):
        return wds.WebLoader([], batch_size=None, num_workers=0, pin_memory=False)

    def get_dataset_fn(dataset_type):
        if dataset_type == "webdataset":
            return get_wds_dataset
        elif dataset_type == "toy":
            return get_other_dataset
        else:
            raise ValueError(dataset_type)

    def get_data(args):
        data = {}
        data["train"] = get_dataset_fn(args.dataset_type)(args, is_train=True)
        return data
"""


def test_dispatcher_call_followed_to_the_function_the_option_picks(cli, tmp_path):
    write(tmp_path, {"train.py": DISPATCH_TRAIN, "data.py": DISPATCH_DATA})
    plan = plan_of(cli, "train.py", "--", "--dataset-type=webdataset", "--workers=6", cwd=tmp_path)
    workers = fact(plan, "data.num_workers")
    assert workers is not None and workers.value == 6
    pin = fact(plan, "data.pin_memory")
    assert pin is not None and pin.value is True


def test_dispatcher_arm_not_decided_reads_nothing(cli, tmp_path):
    write(tmp_path, {"train.py": DISPATCH_TRAIN.replace('default="toy"', 'default=None'), "data.py": DISPATCH_DATA})
    plan = plan_of(cli, "train.py", "--", "--workers=6", cwd=tmp_path)
    workers = fact(plan, "data.num_workers")
    assert workers is None or workers.value != 6
