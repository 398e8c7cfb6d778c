"""A plain config class whose argument-less ``__init__`` sets its attributes, some by indexing an inline list of
choices (adapters/config_object_init_attrs.py): ZhengPeng7/BiRefNet @ 25cb930 ``config.py:5-119``
(``self.mixed_precision = ['no', 'fp16', 'bf16', 'fp8'][2]``, ``self.optimizer = ['Adam', 'AdamW'][1]``,
``self.num_workers = max(4, self.batch_size)``) read through ``config = Config()`` in ``train.py:30``.
Twins: an attribute also set in a branch or another method, an index that is not a literal, a class with
``__init__`` parameters."""

from __future__ import annotations

import ast
import textwrap

from plan_helpers import fact, plan_of, write
from preflight.adapters.config_object_init_attrs import init_attrs

CONFIG = """\
    import os


    class Config():
        def __init__(self) -> None:
            self.batch_size = 8
            self.compile = True
            self.mixed_precision = ['no', 'fp16', 'bf16', 'fp8'][2]
            self.sys_home_dir = [os.path.expanduser('~'), '/workspace'][1]
            self.task = ['DIS5K', 'COD', 'HRSOD'][0]
            self.testsets = {
                'DIS5K': ','.join(['DIS-VD', 'DIS-TE1']),
                'COD': 'CHAMELEON',
            }[self.task]
            self.size = (1024, 1024) if self.task not in ['General-2K'] else (2560, 1440)
            self.num_workers = max(4, self.batch_size)
            self.lr = 1e-4 * (self.batch_size // 4)
            self.optimizer = ['Adam', 'AdamW'][1]
            self.bb = ['vgg16', 'swin_v1_l'][int(os.environ.get('BB', 1))]
            self.freeze_bb = 'dino_v3' in self.bb
            self.device = 0
            if self.task == 'COD':
                self.batch_size = 4
            {extra}

        def set_device(self, d):
            self.device = d
"""

TRAIN = """\
    import torch
    from torch.utils.data import DataLoader
    import torch.optim as optim
    from config import Config

    config = Config()


    def main():
        model = torch.nn.Linear(3, 3)
        loader = DataLoader(list(range(10)), batch_size=config.batch_size, pin_memory=True)
        if config.optimizer == 'AdamW':
            optimizer = optim.AdamW(model.parameters(), lr=config.lr)
        elif config.optimizer == 'Adam':
            optimizer = optim.Adam(model.parameters(), lr=config.lr)
        for x in loader:
            loss = model(x).sum()
            loss.backward()
            optimizer.step()


    main()
"""


def _attrs(extra: str = "") -> dict:
    tree = ast.parse(textwrap.dedent(CONFIG.replace("{extra}", extra)))
    return {k: v for k, (v, _) in init_attrs(tree.body[1]).items()}  # type: ignore[arg-type]


def test_inline_choice_lists_and_derived_values():
    got = _attrs()
    assert got["mixed_precision"] == "bf16" and got["optimizer"] == "AdamW" and got["task"] == "DIS5K"
    assert got["sys_home_dir"] == "/workspace"  # only the picked element is evaluated
    assert got["size"] == (1024, 1024) and got["compile"] is True
    assert got["num_workers"] == 8 and got["lr"] == 2e-4


def test_twins_stay_unknown():
    got = _attrs()
    assert "batch_size" not in got  # also set under `if self.task == 'COD':`
    assert "device" not in got  # also set by another method
    assert "bb" not in got and "freeze_bb" not in got  # an index read from the environment, and what follows it
    assert "testsets" not in got  # a join call: not evaluated


def test_twin_setattr_anywhere_reads_nothing():
    assert _attrs("setattr(self, 'optimizer', 'SGD')") == {}


def test_twin_init_with_parameters_is_not_read():
    tree = ast.parse("class C:\n    def __init__(self, bs):\n        self.batch_size = 8\n")
    assert init_attrs(tree.body[0]) == {}  # type: ignore[arg-type]


def test_plan_takes_the_picked_optimizer(cli, tmp_path):
    write(tmp_path, {"config.py": CONFIG.replace("{extra}", ""), "train.py": TRAIN})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "optimizer.name").value == "AdamW"
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 8  # batch_size depends on the task branch: not read as 8
