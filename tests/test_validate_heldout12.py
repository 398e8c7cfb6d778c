"""Behaviours found by the twelfth held-out run of bench/realworld/configs.py (issue 16): a
LightningCLI config that does not parse is reported by ``check DIR`` (IBM/terratorch
``examples/confs/alexnet_custom_model_config.yaml:127``: a key indented under a list item's value,
"mapping values are not allowed here"), while a broken YAML of no training kind stays uncounted.
The files here are written from scratch in the same shape."""

from __future__ import annotations

from pathlib import Path

BROKEN_CLI = """\
# lightning.pytorch==2.1.1
seed_everything: 42
trainer:
  accelerator: auto
  max_epochs: 1
  check_val_every_n_epoch: 1
  logger:
    class_path: TensorBoardLogger
model:
  class_path: terratorch.tasks.ClassificationTask
  init_args:
    model_args:
      bands:
        - name: red
          new_order: 1
        - name: green new_order: 2
"""

BROKEN_OTHER = """\
site:
  title: docs
  pages:
    - name: intro path: intro.md
"""


def test_broken_lightning_cli_config_is_reported(cli, tmp_path: Path) -> None:
    (tmp_path / "confs").mkdir()
    (tmp_path / "confs" / "alexnet.yaml").write_text(BROKEN_CLI)
    res = cli("check", "confs", cwd=tmp_path)
    assert "confs/alexnet.yaml:16:" in res.out and "invalid YAML" in res.out
    assert res.code != 0


def test_broken_yaml_of_no_training_kind_is_not_counted(cli, tmp_path: Path) -> None:
    (tmp_path / "confs").mkdir()
    (tmp_path / "confs" / "mkdocs.yaml").write_text(BROKEN_OTHER)
    res = cli("check", "confs", cwd=tmp_path)
    assert "invalid YAML" not in res.out
    assert res.code == 0
