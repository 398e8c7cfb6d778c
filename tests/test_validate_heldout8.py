"""Behaviours found by the eighth held-out run of bench/realworld/configs.py (issue 16), each with a
config that must be flagged and a twin that must stay quiet. Shapes from Stability-AI/gpt-neox (a
GPT-NeoX fork whose own NeoXArgs declare ``gas``), PKU-Alignment/align-anything (DeepSpeed configs with
``"gradient_accumulation_steps": null``) and foundation-model-stack/fms-acceleration (an accelerate
config that keeps ``fsdp_backward_prefetch_policy`` beside ``fsdp_backward_prefetch`` for accelerate
< 1.0); the files here are written from scratch."""

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


# --------------------------------------------------------------------------- a GPT-NeoX checkout's own NeoXArgs

NEOX_ARGS = '''\
    from dataclasses import dataclass
    from typing import Literal


    class NeoXArgsTemplate:
        pass


    @dataclass
    class NeoXArgsModel(NeoXArgsTemplate):
        num_layers: int = None
        hidden_size: int = None
        num_attention_heads: int = None
        seq_length: int = None


    @dataclass
    class NeoXArgsTraining(NeoXArgsTemplate):
        train_iters: int = None
        lr_decay_style: Literal["constant", "linear", "cosine", %s] = "linear"
        %s
'''

DEEPSPEED_ARGS = '''\
    from dataclasses import dataclass


    @dataclass
    class NeoXArgsDeepspeedConfig:
        train_micro_batch_size_per_gpu: int = None
        zero_optimization: dict = None
'''

NEOX_CONFIG = """\
    {
      "num-layers": 6,
      "hidden-size": 512,
      "num-attention-heads": 8,
      "seq-length": 2048,
      "train_micro_batch_size_per_gpu": 4,
      "train-iters": 1000,
      "lr-decay-style": "%s",
      %s
      "zero_optimization": {"stage": 1}
    }
"""


def neox_checkout(tmp_path: Path, declares_gas: bool, extra_style: str = '"exponential"') -> None:
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "megatron/neox_arguments/__init__.py", "")
    write(tmp_path, "megatron/neox_arguments/neox_args.py",
          NEOX_ARGS % (extra_style, "gas: int = None" if declares_gas else "pass"))
    write(tmp_path, "megatron/neox_arguments/deepspeed_args.py", DEEPSPEED_ARGS)


def test_a_key_the_checkouts_own_neoxargs_declare_is_quiet(cli, tmp_path):
    # Stability-AI/gpt-neox declares `gas` (neox_args.py), which upstream GPT-NeoX dropped after v2.0
    neox_checkout(tmp_path, declares_gas=True)
    write(tmp_path, "configs/19M.yml", NEOX_CONFIG % ("cosine", '"gas": 1,'))
    code, found = problems(cli, tmp_path, "configs")
    assert code == 0 and found == []


def test_the_same_key_in_a_checkout_that_does_not_declare_it_is_an_error(cli, tmp_path):
    neox_checkout(tmp_path, declares_gas=False)
    write(tmp_path, "configs/19M.yml", NEOX_CONFIG % ("cosine", '"gas": 1,'))
    code, found = problems(cli, tmp_path, "configs")
    (error,) = loud(found)
    assert (code, error["severity"], error["code"], error["key"], error["line"]) == (1, "error", "unknown-key", "gas", 9)
    assert "NeoXArgs(**config) raises TypeError" in error["message"]
    assert "this checkout's megatron/neox_arguments" in error["message"]


def test_a_key_upstream_has_but_the_checkout_lacks_is_an_error_in_the_checkout(cli, tmp_path):
    # `save-interval` (upstream: checkpoint_factor) is not declared by this checkout's NeoXArgs either
    neox_checkout(tmp_path, declares_gas=True)
    write(tmp_path, "configs/tune.json", NEOX_CONFIG % ("cosine", '"save-interval": 1000,'))
    code, found = problems(cli, tmp_path, "configs")
    (error,) = loud(found)
    assert (code, error["key"], error["line"]) == (1, "save-interval", 9)


def test_a_choice_the_checkout_adds_is_accepted_and_a_typo_of_it_is_not(cli, tmp_path):
    neox_checkout(tmp_path, declares_gas=True, extra_style='"hybrid_cosine"')
    write(tmp_path, "configs/a.yml", NEOX_CONFIG % ("hybrid_cosine", ""))
    write(tmp_path, "configs/b.yml", NEOX_CONFIG % ("hybrid_cosin", ""))
    code, found = problems(cli, tmp_path, "configs")
    (error,) = loud(found)
    assert (code, error["path"].endswith("b.yml"), error["code"], error["key"], error["line"]) == \
        (1, True, "invalid-value", "lr-decay-style", 8)


def test_a_checkout_whose_argument_files_do_not_parse_falls_back_to_upstreams_fields(cli, tmp_path):
    neox_checkout(tmp_path, declares_gas=True)
    write(tmp_path, "megatron/neox_arguments/neox_args.py", "class NeoXArgsModel(:\n")
    write(tmp_path, "configs/19M.yml", NEOX_CONFIG % ("cosine", '"gas": 1,'))
    code, found = problems(cli, tmp_path, "configs")
    assert code == 1 and [p["key"] for p in loud(found)] == ["gas"]


# --------------------------------------------------------------------------- DeepSpeed's batch triple as null

DS_NULL = """\
    {
      "train_batch_size": 128,
      "train_micro_batch_size_per_gpu": 16,
      "gradient_accumulation_steps": %s,
      "zero_optimization": {"stage": %s},
      "bf16": {"enabled": true}
    }
"""


def test_a_null_batch_key_is_unset_for_deepspeed(cli, tmp_path):
    write(tmp_path, "ds_z2_config.json", DS_NULL % ("null", "2"))
    code, found = problems(cli, tmp_path, "ds_z2_config.json")
    assert code == 0 and loud(found) == []
    (note,) = found
    assert (note["severity"], note["code"], note["key"], note["line"]) == \
        ("note", "unset-value", "gradient_accumulation_steps", 4)


@pytest.mark.parametrize("gas, stage, key", [('"4"', "2", "gradient_accumulation_steps"),
                                             ("null", "null", "zero_optimization.stage")])
def test_a_string_batch_key_or_a_null_inside_a_deepspeed_block_is_still_an_error(cli, tmp_path, gas, stage, key):
    write(tmp_path, "ds_z2_config.json", DS_NULL % (gas, stage))
    code, found = problems(cli, tmp_path, "ds_z2_config.json")
    assert code == 1 and [p["key"] for p in loud(found) if p["severity"] == "error"] == [key]


def test_check_dir_with_a_null_batch_key_is_clean(cli, tmp_path):
    write(tmp_path, "configs/ds_z2_config.json", DS_NULL % ("null", "2"))
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert result.code == 0, result.out


# --------------------------------------------------------------------------- accelerate's renamed key kept for old releases

ACCELERATE = """\
    compute_environment: LOCAL_MACHINE
    distributed_type: FSDP
    fsdp_config:
      fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
      %s
      fsdp_backward_prefetch_policy: BACKWARD_PRE # for backward compatibility accelerate<1.0
      fsdp_offload_params: false
      fsdp_sharding_strategy: 1
      fsdp_state_dict_type: FULL_STATE_DICT
    machine_rank: 0
    main_training_function: main
    mixed_precision: bf16
    num_machines: 1
    num_processes: 8
    use_cpu: false
"""


def test_the_old_prefetch_key_beside_the_new_one_with_the_same_value_is_a_note(cli, tmp_path):
    write(tmp_path, "accelerate.yaml", ACCELERATE % "fsdp_backward_prefetch: BACKWARD_PRE")
    code, found = problems(cli, tmp_path, "accelerate.yaml")
    assert code == 0 and loud(found) == []
    (note,) = found
    assert (note["key"], note["line"]) == ("fsdp_config.fsdp_backward_prefetch_policy", 6)
    assert "only serves older releases" in note["message"]


@pytest.mark.parametrize("new", ["fsdp_backward_prefetch: BACKWARD_POST", "fsdp_forward_prefetch: false"])
def test_the_old_prefetch_key_alone_or_disagreeing_with_the_new_one_is_a_warning(cli, tmp_path, new):
    write(tmp_path, "accelerate.yaml", ACCELERATE % new)
    _, found = problems(cli, tmp_path, "accelerate.yaml")
    (warning,) = loud(found)
    assert (warning["severity"], warning["key"], warning["line"]) == \
        ("warning", "fsdp_config.fsdp_backward_prefetch_policy", 6)


# --------------------------------------------------------------------------- `check` reads a YAML-to-flags loader as `validate` does

DEFAULTS = """\
    num_train_epochs: 1
    gradient_accumulation_steps: 1
    gradient_checkpointing: true
    save_strategy: "no"
    adam_epsilon: 1e-4
    per_device_train_batch_size: 4
    learning_rate: 2.0e-5
"""

FLAGS_LOADER = """\
    import yaml


    def build_args(path):
        with open(path) as f:
            config = yaml.safe_load(f)
        args = []
        for k, v in config.items():
            args.append(f"--{k}")
            args.append(str(v))
        return args
"""


def test_check_dir_reads_a_float_as_the_projects_flag_loader_passes_it(cli, tmp_path):
    # fms-acceleration's benchmark.py turns defaults.yaml into --flags: argparse reads 1e-4 as a number
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "scripts/benchmark.py", FLAGS_LOADER)
    write(tmp_path, "scripts/defaults.yaml", DEFAULTS)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert result.code == 0 and "PF603" in result.out and "passes each key as a --flag" in result.out


def test_check_dir_keeps_the_float_error_without_such_a_loader(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "scripts/defaults.yaml", DEFAULTS)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert result.code == 1 and "scripts/defaults.yaml:5:1: PF603" in result.out


LAUNCH_LINE_PARSER = """\
    import yaml


    def parse(argv, path):
        with open(path) as f:
            config = yaml.safe_load(f)
        values = {}
        i = 0
        while i < len(argv):
            key = argv[i][2:]
            values[key] = (argv[i + 1], f"--{key}")  # a label for a flag read from the launch line
            i += 2
        return config, values
"""


def test_a_launch_line_parser_naming_its_flags_is_no_yaml_to_flags_loader(cli, tmp_path):
    # twin of the test above: the module loads YAML and builds f"--{key}", but from a name no loop over
    # the YAML's keys binds (the shape of a launch-line parser, e.g. argbind's): PyYAML's reading stands
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "scripts/parse.py", LAUNCH_LINE_PARSER)
    write(tmp_path, "scripts/defaults.yaml", DEFAULTS)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert "PF603" in result.out and "passes each key as a --flag" not in result.out
