"""An accelerate config key that every launch line of the project passes as an option is not
read from the file (accelerate's ``_validate_launch_command``): a problem on it is a note that
names the launch line. Modelled on dvlab-research/Step-DPO (``accelerate_configs/
deepspeed_zero3.yaml`` has ``mixed_precision: no``; ``bash_scrips/qwen2_7b_step_dpo.sh`` runs
``accelerate launch --config_file accelerate_configs/deepspeed_zero3.yaml --mixed_precision bf16``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from preflight.validate_overrides import launch_options, names_file, overridden_keys

CONFIG = """compute_environment: LOCAL_MACHINE
deepspeed_config:
  zero_stage: 3
distributed_type: DEEPSPEED
machine_rank: 0
mixed_precision: no
num_machines: 1
num_processes: 8
use_cpu: false
"""


def _project(tmp_path: Path, launch: str, where: str = "scripts/run.sh") -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    cfg = tmp_path / "accelerate_configs" / "deepspeed_zero3.yaml"
    cfg.parent.mkdir()
    cfg.write_text(CONFIG)
    script = tmp_path / where
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(launch)
    return cfg


def _validate(cli, cfg: Path) -> subprocess.CompletedProcess[str]:
    """``preflight validate CFG``, in-process (conftest's ``cli``): nothing here is about the process."""
    run = cli("validate", str(cfg))
    return subprocess.CompletedProcess(["preflight", "validate", str(cfg)], run.code, run.out, run.err)


STEP_DPO = ("ACCELERATE_LOG_LEVEL=info accelerate launch --config_file accelerate_configs/deepspeed_zero3.yaml \\\n"
            "    --mixed_precision bf16 --num_processes 8 train.py configs/config_full.yaml\n")


def test_key_every_launch_overrides_is_a_note_naming_the_line(tmp_path: Path, cli) -> None:
    cfg = _project(tmp_path, STEP_DPO)
    run = _validate(cli, cfg)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "deepspeed_zero3.yaml:6: note: no is the boolean false" in run.stdout
    assert "passes --mixed_precision (scripts/run.sh:1)" in run.stdout


def test_launch_without_the_option_keeps_the_error(tmp_path: Path, cli) -> None:
    cfg = _project(tmp_path, STEP_DPO.replace("--mixed_precision bf16 ", ""))
    run = _validate(cli, cfg)
    assert run.returncode == 1
    assert "deepspeed_zero3.yaml:6: error: no is the boolean false" in run.stdout


def test_one_launch_without_the_option_keeps_the_error(tmp_path: Path, cli) -> None:
    cfg = _project(tmp_path, STEP_DPO)
    (tmp_path / "README.md").write_text("```\naccelerate launch --config_file accelerate_configs/deepspeed_zero3.yaml "
                                        "train.py x.yaml\n```\n")
    assert "error: no is the boolean false" in _validate(cli, cfg).stdout


def test_option_given_to_the_script_not_accelerate_keeps_the_error(tmp_path: Path, cli) -> None:
    # after the training script the options are the script's own, not accelerate's
    cfg = _project(tmp_path, "accelerate launch --config_file accelerate_configs/deepspeed_zero3.yaml "
                             "train.py --mixed_precision bf16\n")
    assert "error: no is the boolean false" in _validate(cli, cfg).stdout


def test_config_named_through_a_variable_is_not_evidence(tmp_path: Path, cli) -> None:
    cfg = _project(tmp_path, 'CFG=accelerate_configs/deepspeed_zero3.yaml\n'
                             'accelerate launch --config_file $CFG --mixed_precision bf16 train.py\n')
    assert "error: no is the boolean false" in _validate(cli, cfg).stdout


def test_launch_in_the_readme_counts(tmp_path: Path, cli) -> None:
    cfg = _project(tmp_path, "```bash\n" + STEP_DPO + "```\n", where="README.md")
    run = _validate(cli, cfg)
    assert run.returncode == 0
    assert "(README.md:2)" in run.stdout


def test_audit_uses_its_own_launch_line(tmp_path: Path, cli) -> None:
    cfg = _project(tmp_path, "")  # no launch script in the project: the audited line decides
    (tmp_path / "train.py").write_text("from accelerate import Accelerator\naccelerator = Accelerator()\n")

    def audit(*options: str) -> str:
        launch = ["accelerate", "launch", "--config_file", str(cfg), *options, "train.py"]
        return cli("audit", "--no-cache", "--", *launch, cwd=tmp_path).out

    given = audit("--mixed_precision", "bf16")
    assert "its launch line passes --mixed_precision" in given
    assert "Found 1 finding (1 note)" in given
    bare = audit()
    assert "deepspeed_zero3.yaml:6:1: PF603 no is the boolean false" in bare
    assert "(1 error)" in bare


@pytest.mark.parametrize("tokens, config, options", [
    (["accelerate", "launch", "--config_file", "a.yaml", "--mixed_precision", "bf16", "t.py", "--lr", "1"],
     "a.yaml", {"mixed_precision"}),
    (["accelerate", "launch", "--config-file=a.yaml", "--multi_gpu", "--num-processes", "2", "t.py"],
     "a.yaml", {"multi_gpu", "num_processes"}),
    (["python", "-m", "accelerate.commands.launch", "--config_file", "a.yaml", "-m", "pkg.train", "--fp16"],
     "a.yaml", set()),
    (["torchrun", "--nproc_per_node", "8", "t.py", "--config_file", "a.yaml"], None, set()),
])
def test_launch_options(tokens: list[str], config: str, options: set[str]) -> None:
    assert launch_options(tokens) == (config, frozenset(options))


def test_names_file_matches_trailing_parts(tmp_path: Path) -> None:
    cfg = _project(tmp_path, "")
    assert names_file("accelerate_configs/deepspeed_zero3.yaml", cfg)
    assert names_file("./accelerate_configs/deepspeed_zero3.yaml", cfg)
    assert names_file("$ROOT/accelerate_configs/deepspeed_zero3.yaml", cfg)
    assert not names_file("other/deepspeed_zero3.yaml", cfg)
    assert not names_file("$CFG", cfg)
    assert overridden_keys(cfg) == {}


# uclaml/SPPO @ 5e61c4e90822fe526d8bbe1a50a6e85a85c30911: recipes/uclaml-sppo/config_full.yaml has
# `do_eval: "no"` (a string where TrainingArguments types a bool) and sppo/run_sppo.py:163-165 does
# `model_args, data_args, training_args = parser.parse()` then `training_args.do_eval = False`.
SPPO_YAML = """model_name_or_path: mistralai/Mistral-7B-Instruct-v0.2
bf16: true
do_eval: "no"
learning_rate: 5.0e-7
per_device_train_batch_size: 8
output_dir: checkpoints/sppo
"""
SPPO_RUN = """from alignment import H4ArgumentParser, ModelArguments, DataArguments, SPPOConfig


def main():
    parser = H4ArgumentParser((ModelArguments, DataArguments, SPPOConfig))
    model_args, data_args, training_args = parser.parse()
    training_args.do_eval = False
    {after}
"""


def _sppo(tmp_path: Path, run: str) -> Path:
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='sppo')\n")
    cfg = tmp_path / "recipes" / "config_full.yaml"
    cfg.parent.mkdir()
    cfg.write_text(SPPO_YAML)
    (tmp_path / "sppo").mkdir()
    (tmp_path / "sppo" / "run_sppo.py").write_text(run)
    return cfg


def test_field_the_code_sets_after_parsing_is_a_note(tmp_path: Path, cli) -> None:
    run = _validate(cli, _sppo(tmp_path, SPPO_RUN.format(after="main_inner(model_args, data_args, training_args)")))
    assert run.returncode == 0, run.stdout
    assert "config_full.yaml:3: note:" in run.stdout
    assert "sets training_args.do_eval itself right after parsing (sppo/run_sppo.py:7)" in run.stdout


@pytest.mark.parametrize("run", [
    # under a condition: the file's value is used when the test is false
    SPPO_RUN.replace("    training_args.do_eval = False", "    if data_args.no_eval:\n        training_args.do_eval = False"),
    # the new value keeps the file's
    SPPO_RUN.replace("training_args.do_eval = False", "training_args.do_eval = training_args.do_eval and True"),
    # another object than the parsed ones
    SPPO_RUN.replace("training_args.do_eval = False", "other.do_eval = False"),
    # no reassignment at all
    SPPO_RUN.replace("    training_args.do_eval = False\n", ""),
])
def test_other_shapes_keep_the_problem(tmp_path: Path, run: str, cli) -> None:
    out = _validate(cli, _sppo(tmp_path, run.format(after="pass"))).stdout
    assert "config_full.yaml:3: warning:" in out, out
