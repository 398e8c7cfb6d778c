"""PF573 overfit-batches-left-in-run: Lightning's overfit_batches debugging limit left in a run that keeps its
results (Lightning-AI/pytorch-lightning#12668), in a script or in a Hydra trainer config; debug configs and
debugging scripts stay silent."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

TRAIN = """\
import lightning as L
from lightning.pytorch.callbacks import ModelCheckpoint

from model import Net

ckpt = ModelCheckpoint(monitor="val_loss")
trainer = L.Trainer(max_epochs=30, overfit_batches=0.1, callbacks=[ckpt])
trainer.fit(Net())
"""

APP = """\
import hydra


@hydra.main(config_path="configs", config_name="train", version_base="1.3")
def main(cfg):
    trainer = hydra.utils.instantiate(cfg.trainer)
    trainer.fit(hydra.utils.instantiate(cfg.model))
"""

TRAINER_YAML = """\
_target_: lightning.pytorch.Trainer
max_epochs: 10
overfit_batches: 4
"""


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text))


def _found(cli, root: Path, *args: str) -> list[tuple[str, int, str]]:
    res = cli("audit", *args, "--select", "PF573", "--format", "json", "--no-cache", "--exit-zero", cwd=root)
    assert res.code == 0, res.err
    return [(Path(f["path"]).as_posix(), f["line"], f["severity"]) for f in json.loads(res.out)["findings"]]


def test_the_script_keyword_is_reported(cli, tmp_path):
    _write(tmp_path, {"train.py": TRAIN})
    assert _found(cli, tmp_path, "train.py") == [("train.py", 7, "warning")]


def test_a_debugging_script_that_keeps_nothing_is_silent(cli, tmp_path):
    _write(tmp_path, {"train.py": TRAIN.replace(", callbacks=[ckpt]", ", enable_checkpointing=False").replace(
        'ckpt = ModelCheckpoint(monitor="val_loss")\n', "").replace(
        "from lightning.pytorch.callbacks import ModelCheckpoint\n", "")})
    assert _found(cli, tmp_path, "train.py") == []


def test_a_trainer_group_config_is_reported_unless_it_is_a_debug_config(cli, tmp_path):
    files = {
        "train.py": APP,
        "configs/train.yaml": "defaults:\n  - trainer: default\n  - callbacks: default\n  - _self_\n",
        "configs/trainer/default.yaml": TRAINER_YAML,
        "configs/callbacks/default.yaml": "ckpt:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n",
    }
    _write(tmp_path, files)
    found = _found(cli, tmp_path, "train.py", "--config", "configs/")
    assert [(p.rsplit("/", 1)[-1], line) for p, line, _ in found] == [("default.yaml", 3)]
    (tmp_path / "configs/trainer/default.yaml").write_text(TRAINER_YAML.replace("overfit_batches: 4", "overfit_batches: 0"))
    _write(tmp_path, {"configs/debug/overfit.yaml": "trainer:\n  overfit_batches: 3\n"})
    assert _found(cli, tmp_path, "train.py", "--config", "configs/") == []
