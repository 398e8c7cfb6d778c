"""A module of a local package imported by name (``from training import training_loop``) is read like
any local module the script imports (``adapters/pytorch_local.py``: ``_imported_local``). Shape of
NVlabs/edm @ 008a4e5316c8e3bfe61a62f874bddba254295afb ``train.py:18,229`` and
``training/training_loop.py:89``."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

TRAIN = """\
    import torch

    from training import {name}


    def main():
        {name}.training_loop(batch_size=512)


    if __name__ == "__main__":
        main()
    """

LOOP = """\
    import torch


    def training_loop(batch_size=512):
        net = torch.nn.Linear(4, 4).cuda()
        ddp = torch.nn.parallel.DistributedDataParallel(net, device_ids=[0])
        optimizer = torch.optim.Adam(net.parameters())
        for step in range(10):
            loss = ddp(torch.zeros(4).cuda()).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    """

LAUNCH = ("--", "torchrun", "--standalone", "--nproc_per_node=8", "train.py")


def test_a_module_imported_from_a_local_package_is_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TRAIN.format(name="training_loop"), "training/__init__.py": "",
                     "training/training_loop.py": LOOP})
    plan = plan_of(cli, *LAUNCH, cwd=tmp_path)
    got = fact(plan, "dist.sharding")
    assert got is not None and got.value == "ddp" and got.source.path == "training/training_loop.py"


def test_a_name_that_is_no_module_of_the_package_reads_nothing_more(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TRAIN.format(name="other"), "training/__init__.py": "other = None\n",
                     "training/training_loop.py": LOOP})
    assert winner(plan_of(cli, *LAUNCH, cwd=tmp_path), "dist.sharding") != "ddp"


# nicklashansen/tdmpc2 @ e9f59321933c tdmpc2.py:4 ``from common import math``; common/math.py:106 computes an F1
# metric into a local named ``precision``: no precision setting.
PLAIN = """\
    import torch

    from common import math


    def main():
        net = torch.nn.Linear(4, 4).cuda()
        optimizer = torch.optim.Adam(net.parameters())
        for step in range(10):
            loss = net(torch.zeros(4).cuda()).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(math.f1(1, 2, 3))


    if __name__ == "__main__":
        main()
    """


def test_a_metric_named_precision_in_a_package_module_is_no_precision_setting(cli, tmp_path: Path) -> None:
    metric = "def f1(tp, fp, fn, eps=1e-8):\n    precision = tp / (tp + fp + eps)\n    return precision\n"
    write(tmp_path, {"train.py": PLAIN, "common/__init__.py": "", "common/math.py": metric})
    assert winner(plan_of(cli, "train.py", "--", "--x", "1", cwd=tmp_path), "precision.mode") == "fp32"
    setting = "precision = 'bf16'\ndef f1(tp, fp, fn):\n    return tp\n"
    write(tmp_path, {"common/math.py": setting})
    plan = plan_of(cli, "train.py", "--", "--x", "1", cwd=tmp_path)
    # the reading of the project's own loop takes the setting in the imported module as a 16-bit maybe
    assert not [f for f in plan["fields"].get("precision.mode", []) if f["adapter"] == "visible_code"]


# zhangruochi/pseudoESM @ 859e25ad: the repository root is a package (``__init__.py``), train.py puts the folder
# above it on sys.path and imports ``from pseudoESM.trainer import Trainer``; a clone under another folder name
# is linked back by the README's first heading
OWN_TRAIN = """\
    import os
    import sys

    sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import torch
    from {name}.trainer import Trainer

    if __name__ == "__main__":
        Trainer().fit()
    """

OWN_TRAINER = """\
    import torch
    from torch.cuda.amp import GradScaler, autocast


    class Trainer:
        def fit(self):
            net = torch.nn.Linear(4, 4).cuda()
            ddp = torch.nn.parallel.DistributedDataParallel(net, device_ids=[0])
            optimizer = torch.optim.AdamW(net.parameters())
            scaler = GradScaler()
            for step in range(10):
                with autocast():
                    loss = ddp(torch.zeros(4).cuda()).sum()
                optimizer.zero_grad()
                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()
    """

OWN_LAUNCH = ("--", "torchrun", "--standalone", "--nproc_per_node=2", "train.py")


def test_the_repository_package_imported_by_its_readme_name_is_read(cli, tmp_path: Path) -> None:
    write(tmp_path, {"README.md": "# pseudoESM\n\ntext\n", "__init__.py": "",
                     "train.py": OWN_TRAIN.format(name="pseudoESM"), "trainer.py": OWN_TRAINER})
    plan = plan_of(cli, *OWN_LAUNCH, cwd=tmp_path)
    got = fact(plan, "dist.sharding")
    assert got is not None and got.value == "ddp" and got.source.path == "trainer.py"
    assert winner(plan, "precision.mode") != "fp32"  # the trainer's GradScaler/autocast is seen


def test_a_package_name_the_readme_does_not_give_is_not_followed(cli, tmp_path: Path) -> None:
    write(tmp_path, {"README.md": "# Another Project\n", "__init__.py": "",
                     "train.py": OWN_TRAIN.format(name="pseudoESM"), "trainer.py": OWN_TRAINER})
    plan = plan_of(cli, *OWN_LAUNCH, cwd=tmp_path)
    got = fact(plan, "dist.sharding")
    assert got is None or got.source.path != "trainer.py"
    # no __init__.py at the root: not a package, the name is someone else's
    other = tmp_path / "b"
    write(other, {"README.md": "# pseudoESM\n", "train.py": OWN_TRAIN.format(name="pseudoESM"),
                  "trainer.py": OWN_TRAINER})
    plan = plan_of(cli, *OWN_LAUNCH, cwd=other)
    got = fact(plan, "dist.sharding")
    assert got is None or got.source.path != "trainer.py"


def test_fp32_is_said_only_when_the_imported_modules_name_no_precision(cli, tmp_path: Path) -> None:
    plain = OWN_TRAINER.replace("from torch.cuda.amp import GradScaler, autocast\n", "").replace(
        "            scaler = GradScaler()\n", "").replace("                with autocast():\n                    loss",
                                                         "                if True:\n                    loss").replace(
        "scaler.scale(loss).backward()", "loss.backward()").replace(
        "                scaler.step(optimizer)\n                scaler.update()\n", "                optimizer.step()\n")
    assert "scaler" not in plain and "autocast" not in plain
    write(tmp_path, {"train.py": "import torch\nfrom trainer import Trainer\nTrainer().fit()\n", "trainer.py": plain})
    assert winner(plan_of(cli, *OWN_LAUNCH, cwd=tmp_path), "precision.mode") == "fp32"
    write(tmp_path, {"trainer.py": OWN_TRAINER})
    assert winner(plan_of(cli, *OWN_LAUNCH, cwd=tmp_path), "precision.mode") != "fp32"
