"""Behaviours found by the seventh held-out run of bench/realworld/configs.py (issue 16), each with a
config that must be flagged and a twin that must stay quiet. Shapes from NVIDIA/NeMo (a Hydra
experiment config whose ``trainer:`` node holds ``${max_epochs}`` and ``???``), ContextualAI/HALOs
(accelerate pinned by ``pip install accelerate==0.33.0`` in ``install.sh``), NVlabs/VILA (DeepSpeed
pinned in a pyproject extra, with MiCS keys) and Stability-AI/StableLM (GPT-NeoX configs for Stability
AI's gpt-neox fork); the files here are written from scratch."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems(cli, tmp_path: Path, name: str) -> tuple[int, list[dict]]:
    result = cli("validate", "--format", "json", name, cwd=tmp_path)
    doc = json.loads(result.out)
    return result.code, [p for f in doc["files"] for p in f["problems"]]


def loud(found: list[dict]) -> list[dict]:
    return [p for p in found if p["severity"] in ("error", "warning")]


@pytest.fixture(autouse=True)
def _fresh_memos():
    from preflight.validate_project import _flags_under, _pins_under

    _pins_under.cache_clear()  # the CLI runs in this process: forget the previous project's files
    _flags_under.cache_clear()
    yield


# --------------------------------------------------------------------------- trainer: of a Hydra/OmegaConf file

TTS = """\
    name: FastPitch
    max_epochs: ???
    batch_size: 32
    model:
      n_speakers: 1
    trainer:
      num_nodes: 1
      devices: -1
      accelerator: gpu
      strategy: ddp_find_unused_parameters_true
      precision: 16
      max_epochs: %s
      limit_train_batches: %s
      log_every_n_steps: 100
    %s
"""

EXP = "exp_manager:\n      exp_dir: null\n      create_tensorboard_logger: true"


def test_interpolations_and_mandatory_values_in_a_nemo_trainer_node_are_not_literals(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "examples/tts/conf/fastpitch.yaml", TTS % ("${max_epochs}", "???", EXP))
    code, found = problems(cli, tmp_path, "examples")
    assert code == 0 and loud(found) == []


def test_a_literal_wrong_value_in_the_same_nemo_trainer_node_is_still_an_error(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "examples/tts/conf/fastpitch.yaml", TTS % ("ten", "1.0", EXP))
    code, found = problems(cli, tmp_path, "examples")
    (error,) = loud(found)
    assert (code, error["severity"], error["code"], error["key"], error["line"]) == \
        (1, "error", "wrong-type", "trainer.max_epochs", 12)


# --------------------------------------------------------------------------- pins in install scripts

ACCELERATE = """\
    compute_environment: LOCAL_MACHINE
    distributed_type: FSDP
    fsdp_config:
      fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
      fsdp_backward_prefetch_policy: BACKWARD_PRE
      fsdp_sharding_strategy: FULL_SHARD
      fsdp_state_dict_type: SHARDED_STATE_DICT
    machine_rank: 0
    mixed_precision: bf16
    num_machines: 1
    num_processes: 8
"""

INSTALL = """\
    #!/bin/bash
    conda create --name halos python=3.10.14
    pip install transformers==4.51.3
    pip install %s
    pip install alpaca-eval wandb omegaconf hydra-core==1.3.2
"""


def test_a_pip_install_pin_in_install_sh_keeps_a_key_that_release_reads(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "install.sh", INSTALL % "accelerate==0.33.0")
    write(tmp_path, "accelerate_config/fsdp_8gpu.yaml", ACCELERATE)
    code, found = problems(cli, tmp_path, "accelerate_config")
    (note,) = found
    assert (code, note["severity"], note["key"], note["line"]) == \
        (0, "note", "fsdp_config.fsdp_backward_prefetch_policy", 5)
    assert "accelerate==0.33.0 (install.sh)" in note["message"]


@pytest.mark.parametrize("spec", ["accelerate", "'accelerate>=0.33.0'"])
def test_an_unbounded_pip_install_keeps_the_warning(cli, tmp_path, spec):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "install.sh", INSTALL % spec)
    write(tmp_path, "accelerate_config/fsdp_8gpu.yaml", ACCELERATE)
    code, found = problems(cli, tmp_path, "accelerate_config")
    (warning,) = found
    assert (code, warning["severity"], warning["key"], warning["line"]) == \
        (1, "warning", "fsdp_config.fsdp_backward_prefetch_policy", 5)


def test_only_install_lines_of_a_script_pin(cli, tmp_path):
    # an `echo accelerate==0.33.0` or a launch line is no install
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "run.sh", "echo accelerate==0.33.0\naccelerate launch --config_file a.yaml train.py\n")
    write(tmp_path, "accelerate_config/fsdp_8gpu.yaml", ACCELERATE)
    code, found = problems(cli, tmp_path, "accelerate_config")
    assert (code, [p["severity"] for p in found]) == (1, ["warning"])


# --------------------------------------------------------------------------- DeepSpeed MiCS under a pin

MICS = """\
    {
      "bf16": {"enabled": "auto"},
      "train_micro_batch_size_per_gpu": "auto",
      "zero_optimization": {
        "stage": 3,
        "overlap_comm": true,
        "mics_shard_size": 8,
        "mics_hierarchical_params_gather": false
      }
    }
"""

PYPROJECT = """\
    [project]
    name = "vila"
    dependencies = ["torch==2.3.0", "transformers==4.46.0"]

    [project.optional-dependencies]
    train = [%s, "ninja", "wandb"]
"""


def test_mics_keys_are_a_note_when_a_pyproject_extra_pins_an_older_deepspeed(cli, tmp_path):
    write(tmp_path, "pyproject.toml", PYPROJECT % '"deepspeed==0.9.5"')
    write(tmp_path, "scripts/zero3_mics.json", MICS)
    code, found = problems(cli, tmp_path, "scripts")
    assert code == 0 and loud(found) == []
    mics = [p for p in found if "mics" in p["key"]]
    assert [(p["key"], p["line"]) for p in mics] == [("zero_optimization.mics_shard_size", 7),
                                                      ("zero_optimization.mics_hierarchical_params_gather", 8)]
    assert all("deepspeed==0.9.5 (pyproject.toml), which still accepts it" in p["message"] for p in mics)


@pytest.mark.parametrize("spec", ['"deepspeed>=0.13.5"', '"deepspeed==0.19.8"'])
def test_mics_keys_stay_errors_without_an_older_pin(cli, tmp_path, spec):
    write(tmp_path, "pyproject.toml", PYPROJECT % spec)
    write(tmp_path, "scripts/zero3_mics.json", MICS)
    code, found = problems(cli, tmp_path, "scripts")
    assert code == 1 and [(p["severity"], p["line"]) for p in found] == [("error", 7), ("error", 8)]
    assert "DeepSpeed removed MiCS" in found[0]["message"]


def test_check_dir_reports_mics_keys_only_without_the_pin(cli, tmp_path):
    write(tmp_path, "train.py", "print('hi')\n")
    write(tmp_path, "pyproject.toml", PYPROJECT % '"deepspeed>=0.13.5"')
    write(tmp_path, "scripts/zero3_mics.json", MICS)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert result.code == 1 and "scripts/zero3_mics.json:7" in result.out and "DeepSpeed rejects it" in result.out
    write(tmp_path, "pyproject.toml", PYPROJECT % '"deepspeed==0.9.5"')
    from preflight.validate_project import _pins_under

    _pins_under.cache_clear()
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert result.code == 0 and "DeepSpeed rejects it" not in result.out and "still accepts it" in result.out


# --------------------------------------------------------------------------- GPT-NeoX fork fields

STABLELM = """\
    {
      "pipe-parallel-size": 0,
      "model-parallel-size": 1,
      "num-layers": 32,
      "hidden-size": 2560,
      "num-attention-heads": 32,
      "seq-length": 4096,
      "attention_head_type": "multihead",
      "rotary_interleaved": false,
      "norm": "layernorm",
      "pos-emb": "rotary",
      %s
      "train_micro_batch_size_per_gpu": 4,
      "train-iters": 100000,
      "eval_batch_size": 4,
      "wandb_name": "run",
      "max-position-embeddings": 4096,
      "activation": "silu",
      "no-weight-tying": true,
      "gpt_j_residual": false,
      "init_method": "normal",
      "init_method_std": 0.02,
      "checkpoint-activations": true,
      "distributed-backend": "nccl",
      "log-interval": 10,
      "weight-decay": 0.1
    }
"""


def test_fields_of_stability_ais_gpt_neox_fork_are_notes_outside_gpt_neox(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "configs/stablelm-3b.yml", STABLELM % "")
    code, found = problems(cli, tmp_path, "configs")
    assert code == 0 and loud(found) == []
    notes = {p["key"]: p for p in found}
    assert set(notes) == {"attention_head_type", "rotary_interleaved", "eval_batch_size", "wandb_name"}
    assert notes["attention_head_type"]["line"] == 8
    assert "the fork Stability-AI/gpt-neox@stable declared it" in notes["attention_head_type"]["message"]


def test_a_key_no_public_gpt_neox_declares_stays_an_error_beside_fork_fields(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "configs/stablelm-3b.yml", STABLELM % '"mlp_type": "gated",')
    code, found = problems(cli, tmp_path, "configs")
    (error,) = loud(found)
    assert (code, error["severity"], error["key"], error["line"]) == (1, "error", "mlp_type", 12)
    assert "NeoXArgs(**config) raises TypeError" in error["message"]


def test_fork_fields_inside_a_gpt_neox_checkout_stay_errors(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "megatron/neox_arguments/__init__.py", "")
    write(tmp_path, "configs/stablelm-3b.yml", STABLELM % "")
    code, found = problems(cli, tmp_path, "configs")
    assert code == 1
    assert {p["key"] for p in loud(found)} == {"attention_head_type", "rotary_interleaved", "eval_batch_size",
                                              "wandb_name"}


# --------------------------------------------------------------------------- "auto" under an old DeepSpeed pin

AUTO = """\
    {
      "train_micro_batch_size_per_gpu": "auto",
      "fp16": {"enabled": %s, "loss_scale": 0},
      "bf16": {"enabled": "auto"},
      "zero_optimization": {"stage": 2}
    }
"""


def test_auto_under_an_old_deepspeed_pin_is_left_to_the_hf_integration(cli, tmp_path):
    # transformers' HfDeepSpeedConfig fills "auto" before DeepSpeed reads the section: nothing to say
    write(tmp_path, "pyproject.toml", PYPROJECT % '"deepspeed==0.9.5"')
    write(tmp_path, "scripts/zero2.json", AUTO % '"auto"')
    code, found = problems(cli, tmp_path, "scripts")
    assert (code, found) == (0, [])


def test_a_literal_of_another_type_under_an_old_deepspeed_pin_is_still_a_note(cli, tmp_path):
    write(tmp_path, "pyproject.toml", PYPROJECT % '"deepspeed==0.9.5"')
    write(tmp_path, "scripts/zero2.json", AUTO % '"yes"')
    code, found = problems(cli, tmp_path, "scripts")
    (note,) = found
    assert (code, note["severity"], note["key"], note["line"]) == (0, "note", "fp16.enabled", 3)
    assert "deepspeed==0.9.5 (pyproject.toml), which reads the value as given" in note["message"]


# --------------------------------------------------------------------------- NeMo configs with a defaults list

NEMO_DEFAULTS = """\
    defaults:
      - _self_
      - optional tp_overlap@model.ub_tp_comm_overlap_cfg:
    name: megatron_gpt
    trainer:
      devices: 1
      num_nodes: 1
      accelerator: gpu
      precision: bf16
      logger: False
      enable_checkpointing: False
      use_distributed_sampler: False
      max_steps: 100000
      %s
    exp_manager:
      explicit_log_dir: null
      create_wandb_logger: False
    model:
      micro_batch_size: 4
"""


def test_a_nemo_config_with_a_defaults_list_is_recognised_and_its_trainer_checked(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "conf/megatron_gpt_config.yaml", NEMO_DEFAULTS % "log_every_n_step: 10")
    code, found = problems(cli, tmp_path, "conf")
    (error,) = loud(found)
    assert (code, error["code"], error["key"], error["line"]) == (1, "unknown-key", "trainer.log_every_n_step", 14)
    assert "did you mean 'log_every_n_steps'?" in error["message"]


def test_the_same_nemo_config_spelled_right_is_quiet(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "conf/megatron_gpt_config.yaml", NEMO_DEFAULTS % "log_every_n_steps: ${log_steps}")
    result = cli("validate", "conf", cwd=tmp_path)
    assert result.code == 0 and "Validated 1 file (lightning-trainer): no problems" in result.out


def test_a_hydra_file_with_a_trainer_node_but_no_exp_manager_is_not_taken_for_lightning(cli, tmp_path):
    # a project's own trainer settings under a Hydra defaults list: no evidence that Trainer() reads them
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    text = NEMO_DEFAULTS % "log_every_n_step: 10"
    write(tmp_path, "conf/own.yaml", text.replace("exp_manager:", "logging:"))
    result = cli("validate", "--format", "json", "conf", cwd=tmp_path)
    doc = json.loads(result.out)
    assert (result.code, doc["counts"]["checked"], doc["counts"]["not_recognised"]) == (0, 0, 1)
