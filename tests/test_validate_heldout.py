"""Behaviours found by the second held-out run of bench/realworld/configs.py (issue 16): a
renamed TrainingArguments/SFTConfig key is still valid in the release the project pins exactly,
and a null accelerate value is unset (filled from the command line), not a wrong type. Each has
a config that must be flagged and a twin that must stay quiet; the shapes come from
princeton-nlp/SimPO and huggingface/smollm, the files here are written from scratch."""

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


SIMPO = """\
    model_name_or_path: mistralai/Mistral-7B-v0.1
    torch_dtype: bfloat16
    bf16: true
    do_eval: true
    evaluation_strategy: steps
    eval_steps: 400
    gradient_accumulation_steps: 16
    learning_rate: 3.0e-7
    per_device_train_batch_size: 2
    output_dir: outputs/simpo
"""

SFT = """\
    model_name_or_path: meta-llama/Meta-Llama-3-8B
    chat_template: "{{ messages }}"
    output_dir: out
    per_device_train_batch_size: 4
    learning_rate: 2.0e-5
    packing: true
    max_seq_length: 2048
"""


@pytest.mark.parametrize("pin_file, pin", [
    ("environment.yml", "dependencies:\n  - pip:\n      - transformers==4.44.2\n"),
    ("requirements.txt", "torch\ntransformers==4.44.2  # the release we trained with\n"),
    ("environment.yml", "dependencies:\n  - transformers=4.44.2=pyhd8ed1ab_0\n"),
])
def test_a_renamed_key_is_quiet_when_the_project_pins_a_release_that_has_it(cli, tmp_path, pin_file, pin):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, pin_file, pin)
    write(tmp_path, "training_configs/simpo.yaml", SIMPO)
    code, found = problems(cli, tmp_path, "training_configs")
    (note,) = found
    assert (code, note["severity"], note["key"], note["line"]) == (0, "note", "evaluation_strategy", 5)
    assert f"the project pins transformers==4.44.2 ({pin_file})" in note["message"]


@pytest.mark.parametrize("pin", [
    "transformers>=4.39.3\n",  # a lower bound: a fresh install takes the newest release
    "transformers==4.46.0\n",  # pinned, but at the release that removed it
    "transformers==4.44.2\n# transformers==4.50.0\ntransformers==4.51.0\n",  # two files/lines disagree
    "# transformers==4.44.2\n",  # a comment pins nothing
])
def test_a_renamed_key_is_still_reported_without_an_exact_older_pin(cli, tmp_path, pin):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "requirements.txt", pin)
    write(tmp_path, "training_configs/simpo.yaml", SIMPO)
    code, found = problems(cli, tmp_path, "training_configs")
    (problem,) = found
    assert (code, problem["severity"], problem["key"]) == (1, "warning", "evaluation_strategy")
    assert "renamed it to `eval_strategy`" in problem["message"]


def test_sft_max_seq_length_follows_the_projects_trl_pin(cli, tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, "sft.yaml", SFT)
    write(tmp_path, "requirements.txt", "trl==0.9.6\n")
    code, found = problems(cli, tmp_path, "sft.yaml")
    assert (code, [p["severity"] for p in found]) == (0, ["note"])
    write(tmp_path, "requirements.txt", "trl==0.20.0\n")
    from preflight.validate_project import _pins_under

    _pins_under.cache_clear()  # the CLI runs in this process: forget the first project's pins
    code, found = problems(cli, tmp_path, "sft.yaml")
    assert (code, [(p["severity"], p["key"]) for p in found]) == (1, [("warning", "max_seq_length")])


ACCELERATE = """\
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    machine_rank: 0
    main_process_ip: null
    main_process_port: null
    mixed_precision: bf16
    num_machines: {machines}
    num_processes: {processes}
    use_cpu: false
"""


def test_a_null_accelerate_value_is_unset_not_a_wrong_type(cli, tmp_path):
    write(tmp_path, "accelerate_config.yaml", ACCELERATE.format(machines="null", processes="null"))
    code, found = problems(cli, tmp_path, "accelerate_config.yaml")
    assert code == 0
    assert [(p["severity"], p["code"], p["key"], p["line"]) for p in found] == [
        ("note", "unset-value", "num_machines", 7), ("note", "unset-value", "num_processes", 8)]
    assert "--num_processes on the command line" in found[1]["message"]


@pytest.mark.parametrize("processes", ["eight", "[8]"])
def test_a_non_null_accelerate_value_of_the_wrong_type_is_still_reported(cli, tmp_path, processes):
    write(tmp_path, "accelerate_config.yaml", ACCELERATE.format(machines="1", processes=processes))
    code, found = problems(cli, tmp_path, "accelerate_config.yaml")
    (problem,) = found
    assert (code != 0, problem["code"], problem["key"], problem["line"]) == (True, "wrong-type", "num_processes", 8)
