"""det125's rules as a user meets them on the command line (issue 18): ``preflight audit train.py --config ds.json``
reports PF198 for fp16 + ZeRO stage 0 only on DeepSpeed releases that run ``engine.backward`` without the loss
scale (0.18.3 and later, or unpinned), PF195 only for an L2-scale decay under ``"type": "Adam"``, and
``preflight check`` reports PF197/PF199 at the offending call."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import pytest

TRAIN = ("import deepspeed\nimport torch\nmodel = torch.nn.Linear(4, 4)\n"
         "engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config='ds.json')\n"
         "for x in range(10):\n    loss = engine(torch.randn(2, 4).half()).sum()\n    engine.backward(loss)\n"
         "    engine.step()\n")


def _codes(cli, tmp_path: Path, config: dict, pin: Optional[str]) -> list[str]:
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "ds.json").write_text(json.dumps(config, indent=2))
    if pin is not None:
        (tmp_path / "requirements.txt").write_text(f"torch\n{pin}\n")
    res = cli("audit", "train.py", "--config", "ds.json", "--format", "json", cwd=tmp_path)
    assert res.code in (0, 1), res.err
    return sorted(f["code"] for f in json.loads(res.out)["findings"])


_FP16_ZERO0 = {"train_micro_batch_size_per_gpu": 8, "optimizer": {"type": "AdamW", "params": {"lr": 1e-3}},
               "fp16": {"enabled": True}, "zero_optimization": {"stage": 0}}


@pytest.mark.parametrize("pin,fires", [("deepspeed==0.19.2", True), ("deepspeed==0.18.3", True), (None, True),
                                       ("deepspeed==0.18.2", False), ("deepspeed==0.14.4", False)])
def test_fp16_zero0_reported_on_the_releases_that_skip_the_loss_scale(cli, tmp_path: Path, pin, fires) -> None:
    assert ("PF198" in _codes(cli, tmp_path, _FP16_ZERO0, pin)) is fires


def test_fp16_with_zero1_or_bf16_is_not_pf198(cli, tmp_path: Path) -> None:
    zero1 = dict(_FP16_ZERO0, zero_optimization={"stage": 1})
    assert "PF198" not in _codes(cli, tmp_path, zero1, "deepspeed==0.19.2")
    bf16 = {k: v for k, v in _FP16_ZERO0.items() if k != "fp16"}
    bf16["bf16"] = {"enabled": True}
    assert "PF198" not in _codes(cli, tmp_path, bf16, "deepspeed==0.19.2")


@pytest.mark.parametrize("decay,fires", [(5e-4, True), (1e-4, True), (0.1, False), (3e-7, False), (0.0, False)])
def test_adam_type_reported_only_for_an_l2_scale_decay(cli, tmp_path: Path, decay: float, fires: bool) -> None:
    config = {"train_micro_batch_size_per_gpu": 8, "bf16": {"enabled": True},
              "optimizer": {"type": "Adam", "params": {"lr": 1e-4, "weight_decay": decay}}}
    assert ("PF195" in _codes(cli, tmp_path, config, "deepspeed==0.16.4")) is fires
    config["optimizer"]["params"]["adam_w_mode"] = False  # type: ignore[index]
    assert "PF195" not in _codes(cli, tmp_path, config, "deepspeed==0.16.4")


_SPAWN = """import os
import hydra
import torch.multiprocessing as mp
from hydra.utils import get_original_cwd


def train(rank, cfg{param}):
    root = os.path.join({read}, cfg.data)
    print(rank, root)


@hydra.main(version_base=None, config_path="conf", config_name="config")
def main(cfg):
    mp.spawn(train, args=(cfg{arg},), nprocs=2)


if __name__ == "__main__":
    main()
"""


def test_get_original_cwd_in_a_spawned_worker_is_reported_at_its_line(cli, tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(_SPAWN.format(param="", read="get_original_cwd()", arg=""))
    res = cli("check", "train.py", "--select", "PF199", "--format", "json", cwd=tmp_path)
    found = json.loads(res.out)["findings"]
    assert [(f["code"], f["line"]) for f in found] == [("PF199", 8)]
    # the fix: read it in the parent and pass it down
    (tmp_path / "train.py").write_text(_SPAWN.format(param=", cwd", read="cwd", arg=", get_original_cwd()"))
    res = cli("check", "train.py", "--select", "PF199", "--format", "json", cwd=tmp_path)
    assert json.loads(res.out)["findings"] == []


_LOAD = """import os
import deepspeed
import torch

model = torch.nn.Linear(4, 4)
engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config="ds.json")
{load}
"""


@pytest.mark.parametrize("load,fires", [
    ('engine.load_checkpoint(os.path.join("ckpt", "global_step500"))', True),
    ('engine.load_checkpoint("ckpt", tag="global_step500")', False),
    ('engine.load_checkpoint("ckpt")', False),
])
def test_tagless_load_of_a_tag_folder_is_reported(cli, tmp_path: Path, load: str, fires: bool) -> None:
    (tmp_path / "train.py").write_text(_LOAD.format(load=load))
    res = cli("check", "train.py", "--select", "PF197", "--format", "json", cwd=tmp_path)
    assert bool(json.loads(res.out)["findings"]) is fires
