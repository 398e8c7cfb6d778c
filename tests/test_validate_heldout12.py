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


ARGS_YAML = """\
model_name_or_path: mistralai/Mistral-7B-Instruct-v0.2
bf16: true
do_eval: {value}
learning_rate: 5.0e-7
per_device_train_batch_size: 8
output_dir: out
"""


def test_string_for_a_trainer_bool_is_a_warning_saying_it_is_on(cli, tmp_path: Path) -> None:
    # uclaml/SPPO recipes/uclaml-sppo/config_full.yaml: `do_eval: "no"`. HfArgumentParser's
    # parse_yaml_file hands it to TrainingArguments as the string, which is true: nothing rejects it.
    (tmp_path / "args.yaml").write_text(ARGS_YAML.format(value='"no"'))
    res = cli("validate", "args.yaml", cwd=tmp_path)
    assert 'args.yaml:3: warning: do_eval is "no" (string), not a boolean' in res.out
    assert "do_eval is on, the opposite of what it says" in res.out
    assert res.code == 1  # a problem, at warning


def test_a_real_boolean_stays_quiet(cli, tmp_path: Path) -> None:
    (tmp_path / "args.yaml").write_text(ARGS_YAML.format(value="false"))
    res = cli("validate", "args.yaml", cwd=tmp_path)
    assert "do_eval" not in res.out and res.code == 0
