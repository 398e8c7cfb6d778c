"""`preflight validate`: config kinds detected, problems with file:line, schemas from the libraries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.validate import load_schema
from preflight.validate_kinds import KINDS

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "validate"


def problems(cli, *paths: str) -> tuple[int, list[dict]]:
    result = cli("validate", "--format", "json", *paths, cwd=FIXTURES)
    doc = json.loads(result.out)
    return result.code, [p for f in doc["files"] for p in f["problems"]]


def by_line(found: list[dict]) -> dict[int, dict]:
    return {p["line"]: p for p in found}


@pytest.mark.parametrize("name", ["ds_config.json", "accelerate.yaml", "train_args.yaml", "trainer.yaml"])
def test_valid_files_are_silent(cli, name):
    code, found = problems(cli, f"good/{name}")
    assert (code, found) == (0, [])


def test_deepspeed(cli):
    code, found = problems(cli, "bad/ds_config.json")
    assert code == 1
    lines = by_line(found)
    assert lines[5]["code"] == "unknown-key" and lines[5]["severity"] == "warning"  # top level: ignored
    assert "did you mean 'zero_optimization'" in lines[5]["message"]
    assert lines[7]["code"] == "invalid-value" and "expected one of 0, 1, 2, 3" in lines[7]["message"]
    assert lines[9]["severity"] == "error" and "did you mean 'overlap_comm'" in lines[9]["message"]
    assert lines[11]["severity"] == "note"  # "true": pydantic converts it
    assert lines[12]["code"] == "wrong-type" and "gradient_clipping" in lines[12]["message"]
    assert 3 not in lines  # "auto" is filled by the HF Trainer / Accelerate


def test_accelerate(cli):
    code, found = problems(cli, "bad/accelerate.yaml")
    lines = by_line(found)
    assert code == 1
    assert lines[3]["code"] == "yaml11-bool" and "quote it: 'no'" in lines[3]["message"]
    assert lines[5]["severity"] == "error" and "did you mean 'num_machines'" in lines[5]["message"]
    assert lines[9]["severity"] == "warning" and "fsdp_offload_params" in lines[9]["message"]


def test_training_arguments_yaml_traps(cli):
    code, found = problems(cli, "bad/train_args.yaml")
    lines = by_line(found)
    assert code == 1
    assert lines[3]["code"] == "yaml11-float" and lines[3]["severity"] == "error"
    assert "write 1.0e-4" in lines[3]["message"]
    assert "did you mean 'gradient_accumulation_steps'" in lines[4]["message"]
    assert "did you mean 'adamw_torch'" in lines[5]["message"]
    assert lines[8]["code"] == "yaml11-octal" and "octal number 8" in lines[8]["message"]
    assert 6 not in lines  # model_name_or_path: another dataclass of the script may declare it
    assert 9 not in lines  # bf16: yes is a boolean, which bf16 is


def test_sft_config_json(cli):
    result = cli("validate", "--format", "json", "bad/sft.json", cwd=FIXTURES)
    doc = json.loads(result.out)
    assert doc["files"][0]["kinds"][0]["kind"] == "sft-config"
    assert doc["files"][0]["kinds"][0]["schema"]["library"] == "trl"
    (problem,) = doc["files"][0]["problems"]
    assert (problem["line"], problem["code"]) == (3, "wrong-type")


def test_hydra_trainer_node(cli):
    code, found = problems(cli, "bad/trainer.yaml")
    lines = by_line(found)
    assert code == 1
    assert "did you mean 'precision'" in lines[6]["message"]
    assert lines[7]["code"] == "invalid-value"
    assert 2 not in lines and 8 not in lines  # ${...} is not checked; 1e-1 is a float to OmegaConf


def test_text_output_and_directory(cli):
    result = cli("validate", "bad", cwd=FIXTURES)
    assert result.code == 1
    assert "bad/trainer.yaml:6: error: unknown key 'precison' (did you mean 'precision'?)" in result.out
    assert result.out.rstrip().splitlines()[-1].startswith("Validated 5 files")


def test_exit_codes(cli, tmp_path):
    (tmp_path / "other.json").write_text('{"a": 1}', encoding="utf-8")
    (tmp_path / "broken.json").write_text('{"a": ', encoding="utf-8")
    assert cli("validate", "other.json", cwd=tmp_path).code == 3
    broken = cli("validate", "broken.json", cwd=tmp_path)
    assert broken.code == 3 and "broken.json:1" in broken.out
    assert cli("validate", "missing.json", cwd=tmp_path).code == 3
    assert cli("validate", cwd=tmp_path).code == 2
    forced = cli("validate", "--kind", "deepspeed", "other.json", cwd=tmp_path)
    assert forced.code == 1 and "unknown key 'a'" in forced.out


def test_schemas_record_their_library_versions():
    for kind in KINDS:
        if not KINDS[kind].schema:  # recognised, not validated (axolotl)
            continue
        meta = load_schema(kind)["x-preflight"]
        if kind == "gpt-neox":  # not a package: the field list of a pinned commit
            assert len(meta["commit"]) == 40 and meta["generator"] == "tools/gen_neox_fields.py"
            continue
        if kind == "axolotl":  # the field names of axolotl's pydantic models at a pinned commit
            assert len(meta["commit"]) == 40 and meta["generator"] == "tools/gen_axolotl_fields.py"
            assert {"base_model", "datasets", "context_parallel_size"} <= set(load_schema(kind)["properties"])
            assert "liger_rope" in load_schema(kind)["x-plugins"]["axolotl.integrations.liger"]
            continue
        assert meta["library"] and meta["version"][0].isdigit() and meta["generator"] == "tools/gen_schemas.py"
    assert "overlap_comm" in load_schema("deepspeed")["properties"]["zero_optimization"]["anyOf"][0]["properties"]
    assert "adamw_torch" in load_schema("training-args")["properties"]["optim"]["enum"]
    assert load_schema("sft-config")["properties"]["gradient_checkpointing"]["default"] is True


def test_audit_validates_given_configs(cli):
    result = cli("audit", "--config", "bad/ds_config.json", "--no-cache", "--format", "json", cwd=FIXTURES)
    findings = json.loads(result.out)["findings"]
    codes = {(f["code"], f["line"]) for f in findings if f["path"] == "bad/ds_config.json"}
    assert {("PF601", 5), ("PF601", 9), ("PF602", 7), ("PF602", 12)} <= codes
    assert result.code == 1


@pytest.mark.parametrize(("script", "fires"), [
    ('from transformers import HfArgumentParser, TrainingArguments\n'
     '(args,) = HfArgumentParser(TrainingArguments).parse_yaml_file("args.yaml")\n', True),
    # read by OmegaConf, 1e-4 is a float: no YAML 1.1 finding
    ('from omegaconf import OmegaConf\nfrom transformers import TrainingArguments\n'
     'args = TrainingArguments(**OmegaConf.load("args.yaml"))\n', False),
])
def test_audit_judges_yaml_by_the_reader_the_script_uses(cli, tmp_path, script, fires):
    (tmp_path / "train.py").write_text(script, encoding="utf-8")
    (tmp_path / "args.yaml").write_text("output_dir: out\nper_device_train_batch_size: 4\nlearning_rate: 1e-4\n",
                                        encoding="utf-8")
    result = cli("audit", "train.py", "--config", "args.yaml", "--no-cache", "--format", "json", cwd=tmp_path)
    found = [(f["code"], f["line"]) for f in json.loads(result.out)["findings"] if f["path"] == "args.yaml"]
    assert found == ([("PF603", 3)] if fires else [])


def test_hydra_style_training_file_is_read_as_omegaconf(cli, tmp_path):
    (tmp_path / "training.yaml").write_text(
        "defaults:\n  - _self_\noutput_dir: ${paths.output_dir}\nper_device_train_batch_size: ${batch}\n"
        "learning_rate: 1e-4\ngradient_acumulation_steps: 2\n", encoding="utf-8")
    (tmp_path / "paths.yaml").write_text("output_dir: ${hydra:runtime.output_dir}\nlog_dir: logs\n",
                                         encoding="utf-8")
    result = cli("validate", "--format", "json", "training.yaml", "paths.yaml", cwd=tmp_path)
    doc = json.loads(result.out)
    assert [f["path"] for f in doc["files"]] == ["training.yaml"]  # paths.yaml: no TrainingArguments kind
    assert doc["unrecognised"] == ["paths.yaml"]
    found = [(p["line"], p["code"]) for p in doc["files"][0]["problems"]]
    assert found == [(6, "unknown-key")]  # ${...} not type-checked, 1e-4 is a float to OmegaConf


def test_committed_schemas_are_what_the_generator_writes():
    """Needs the libraries the schemas come from (the dev environment); skips without them."""
    import importlib.util
    import subprocess
    import sys

    missing = [m for m in ("transformers", "trl", "lightning", "accelerate", "deepspeed")
               if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"schema generation needs {', '.join(missing)} (tools/gen_schemas.py runs in the dev env)")
    repo = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "tools/gen_schemas.py", "--check"], cwd=repo, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_hydra_group_overlay_trainer_node_is_not_lightning(cli, tmp_path):
    """VISSL PR 368 shape (held-out-5 tricky-correct): a `# @package _global_` dataset file of a
    plain PyTorch loop sets `trainer.batch_size`; without the header the same keys read as a
    LightningCLI file, whose Trainer() rejects batch_size."""
    body = "model:\n  num_classes: 10\ntrainer:\n  max_epochs: 200\n  batch_size: 128\n"
    (tmp_path / "overlay.yaml").write_text("# @package _global_\n" + body, encoding="utf-8")
    (tmp_path / "cli.yaml").write_text(body, encoding="utf-8")
    overlay = json.loads(cli("validate", "--format", "json", "overlay.yaml", cwd=tmp_path).out)
    assert overlay["unrecognised"] == ["overlay.yaml"] and overlay["files"] == []
    plain = json.loads(cli("validate", "--format", "json", "cli.yaml", cwd=tmp_path).out)
    assert [(p["line"], p["code"]) for p in plain["files"][0]["problems"]] == [(5, "unknown-key")]
