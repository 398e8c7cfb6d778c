"""Real-world config behaviours (issue 16): a config's kind is decided on evidence, library
behaviours are modelled, `check DIR` sees configs. Each behaviour has a config that must be
flagged and a twin that must stay quiet. The shapes come from public repositories (see
bench/realworld/configs_manifest.json); the files here are written from scratch."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

LHT = Path(__file__).resolve().parent / "fixtures" / "hydra" / "lht"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def validate(cli, tmp_path: Path, *names: str) -> tuple[int, dict]:
    result = cli("validate", "--format", "json", *names, cwd=tmp_path)
    return result.code, json.loads(result.out)


def found(doc: dict) -> list[dict]:
    return [p for f in doc["files"] for p in f["problems"]]


# --------------------------------------------------------------------------- kind by evidence


TORCHTUNE = """\
    output_dir: /tmp/out
    model:
      _component_: torchtune.models.llama3_2.lora_llama3_2_1b
      lora_rank: 8
    tokenizer:
      _component_: torchtune.models.llama3.llama3_tokenizer
      path: /tmp/tokenizer.model
    seed: null
    shuffle: true
    batch_size: 4
    epochs: 1
    gradient_accumulation_steps: 8
    lr_scheduler:
      _component_: torchtune.training.lr_schedulers.get_cosine_schedule_with_warmup
      num_warmup_steps: 100
    resume_from_checkpoint: false
    enable_activation_checkpointing: true
    log_level: INFO
    learning_rate: 3e-4
"""


def test_a_torchtune_recipe_is_not_recognised_and_is_counted(cli, tmp_path):
    write(tmp_path, "configs/llama_lora.yaml", TORCHTUNE)
    result = cli("validate", "configs", cwd=tmp_path)
    assert result.code == 0
    assert result.out.splitlines() == [
        "configs/llama_lora.yaml: note: not validated: no DeepSpeed, accelerate, TrainingArguments/SFTConfig, "
        "Lightning Trainer or GPT-NeoX settings recognised [not-recognised]",
        "Validated 0 files: no problems; 1 file not recognised as a config"]
    _, doc = validate(cli, tmp_path, "configs")
    assert doc["counts"] == {"checked": 0, "not_recognised": 1, "skipped": 0, "templates": 0, "unreadable": 0}


def test_a_training_arguments_file_is_still_recognised_and_checked(cli, tmp_path):
    write(tmp_path, "configs/args.yaml", """\
        output_dir: out
        per_device_train_batch_size: 8
        gradient_acumulation_steps: 4
        learning_rate: 2.0e-5
    """)
    code, doc = validate(cli, tmp_path, "configs")
    assert code == 1 and doc["counts"]["checked"] == 1
    assert [p["key"] for p in found(doc)] == ["gradient_acumulation_steps"]


def test_a_file_with_a_few_training_keys_among_many_others_is_not_training_args(cli, tmp_path):
    write(tmp_path, "configs/exp.yaml", """\
        learning_rate: 0.1
        output_dir: out
        env_id: CartPole-v1
        total_timesteps: 100000
        num_envs: 4
        gamma: 0.99
        gae_lambda: 0.95
    """)
    code, doc = validate(cli, tmp_path, "configs")
    assert (code, doc["counts"]["checked"], doc["counts"]["not_recognised"]) == (0, 0, 1)


# --------------------------------------------------------------------------- GPT-NeoX


NEOX = """\
    {
      "pipe-parallel-size": 1,
      "model-parallel-size": 1,
      "num-layers": 12,
      "hidden-size": 768,
      "num-attention-heads": 12,
      "seq-length": 2048,
      "max-position-embeddings": 2048,
      "pos-emb": "rotary",
      "optimizer": {"type": "Adam", "params": {"lr": 0.0006}},
      "zero_optimization": {"stage": 1},
      "train_micro_batch_size_per_gpu": 4,
      "train-iters": 320000,
      "precision": "fp16",
      "fp16": {"enabled": true},
      %s
      "checkpoint-factor": 10000
    }
"""


def test_a_neox_config_is_validated_against_neoxargs_not_deepspeed(cli, tmp_path):
    write(tmp_path, "125M.yml", NEOX % "")
    code, doc = validate(cli, tmp_path, "125M.yml")
    assert (code, found(doc)) == (0, [])
    assert doc["files"][0]["kinds"][0]["kind"] == "gpt-neox"


def test_an_unknown_neox_key_is_an_error_because_neox_fails_at_start_up(cli, tmp_path):
    write(tmp_path, "125M.yml", NEOX % '"save-interval": 10000,')
    code, doc = validate(cli, tmp_path, "125M.yml")
    assert code == 1
    (problem,) = found(doc)
    assert (problem["line"], problem["severity"], problem["code"]) == (16, "error", "unknown-key")
    assert "GPT-NeoX fails at start-up" in problem["message"]


def test_neox_literal_values_compare_case_insensitively(cli, tmp_path):
    write(tmp_path, "a.yml", NEOX.replace('"rotary"', '"ROTARY"') % "")
    assert validate(cli, tmp_path, "a.yml")[0] == 0
    write(tmp_path, "b.yml", NEOX.replace('"rotary"', '"rotry"') % "")
    code, doc = validate(cli, tmp_path, "b.yml")
    assert code == 1 and found(doc)[0]["key"] == "pos-emb"


# --------------------------------------------------------------------------- axolotl


AXOLOTL = """\
    base_model: NousResearch/Llama-3.2-1B
    load_in_8bit: true
    adapter: lora
    lora_r: 32
    lora_target_modules: [q_proj, v_proj]
    datasets:
      - path: teknium/GPT4-LLM-Cleaned
        type: alpaca
    sequence_len: 2048
    micro_batch_size: 2
    gradient_accumulation_steps: 4
    learning_rate: 2e-4
    lr_scheduler: cosine
    output_dir: ./outputs/lora-out
    bf16: auto
    fsdp: [full_shard, auto_wrap]
"""


def test_an_axolotl_config_is_checked_against_axolotls_own_fields(cli, tmp_path):
    write(tmp_path, "lora.yml", AXOLOTL)
    result = cli("validate", "lora.yml", cwd=tmp_path)
    assert result.code == 0, result.out
    assert "Validated 1 file (axolotl): 1 note" in result.out
    # learning_rate: 2e-4 is the string '2e-4' for PyYAML; axolotl's pydantic models convert it
    assert "lora.yml:12: note: 2e-4 is read as the string '2e-4'" in result.out


def test_an_axolotl_file_is_not_read_as_training_arguments(cli, tmp_path):
    write(tmp_path, "cfg/lora.yml", AXOLOTL)
    code, doc = validate(cli, tmp_path, "cfg")
    assert (code, [p["severity"] for p in found(doc)], doc["counts"]["checked"]) == (0, ["note"], 1)
    assert [k["kind"] for f in doc["files"] for k in f["kinds"]] == ["axolotl"]


def axolotl_with(extra: str) -> str:
    """AXOLOTL with more top-level lines (indented like it, for write()'s dedent)."""
    return AXOLOTL + textwrap.indent(extra, "    ")


def test_an_unknown_axolotl_key_is_flagged_because_axolotl_drops_it(cli, tmp_path):
    # the shape of axolotl's examples/falcon-h1/falcon-h1-1b-qlora-cp.yaml (a typo) and an old GPTQ key
    write(tmp_path, "cp.yml", axolotl_with("context_parapllel_size: 2\ngptq_groupsize: 128\n"))
    code, doc = validate(cli, tmp_path, "cp.yml")
    problems = [p for p in found(doc) if p["severity"] != "note"]
    assert code == 1
    assert [(p["severity"], p["key"], p["line"]) for p in problems] == [
        ("warning", "context_parapllel_size", 17), ("warning", "gptq_groupsize", 18)]
    assert "did you mean 'context_parallel_size'?" in problems[0]["message"]
    assert "validate_config keeps only the fields they declare" in problems[0]["message"]
    write(tmp_path, "cp.yml", axolotl_with("context_parallel_size: 2\n"))
    code, doc = validate(cli, tmp_path, "cp.yml")
    assert (code, [p["severity"] for p in found(doc)]) == (0, ["note"])


def test_axolotl_plugin_arguments_count_only_when_the_plugin_is_listed(cli, tmp_path):
    liger = "liger_rope: true\nliger_rms_norm: true\n"
    write(tmp_path, "with.yml", axolotl_with("plugins:\n  - axolotl.integrations.liger.LigerPlugin\n" + liger))
    code, doc = validate(cli, tmp_path, "with.yml")
    assert (code, [p["severity"] for p in found(doc)]) == (0, ["note"])
    write(tmp_path, "without.yml", axolotl_with(liger))
    code, doc = validate(cli, tmp_path, "without.yml")
    problems = [p for p in found(doc) if p["severity"] != "note"]
    assert code == 1 and [p["key"] for p in problems] == ["liger_rope", "liger_rms_norm"]
    assert "the axolotl.integrations.liger plugin, which `plugins:` does not list" in problems[0]["message"]
    # a plugin from outside axolotl may declare any key: a note, not a problem
    write(tmp_path, "third.yml", axolotl_with("plugins:\n  - my_pkg.MyPlugin\nmy_plugin_knob: 3\n"))
    code, doc = validate(cli, tmp_path, "third.yml")
    assert (code, [(p["severity"], p["key"]) for p in found(doc)][-1]) == (0, ("note", "my_plugin_knob"))


# --------------------------------------------------------------------------- DeepSpeed


def test_deepspeed_autotuning_lists_stages_to_try(cli, tmp_path):
    tuned = {"train_micro_batch_size_per_gpu": "auto", "autotuning": {"enabled": True},
             "zero_optimization": {"stage": [2, 3]}}
    (tmp_path / "ds_tune.json").write_text(json.dumps(tuned, indent=1))
    assert validate(cli, tmp_path, "ds_tune.json") == (0, validate(cli, tmp_path, "ds_tune.json")[1])
    assert found(validate(cli, tmp_path, "ds_tune.json")[1]) == []
    tuned["zero_optimization"]["stage"] = [2, 4]
    (tmp_path / "ds_bad.json").write_text(json.dumps(tuned, indent=1))
    code, doc = validate(cli, tmp_path, "ds_bad.json")
    assert code == 1 and found(doc)[0]["key"] == "zero_optimization.stage[1]"


def test_a_stage_list_without_autotuning_is_still_an_error(cli, tmp_path):
    (tmp_path / "ds.json").write_text(json.dumps({"train_batch_size": 8, "zero_optimization": {"stage": [2, 3]}}))
    code, doc = validate(cli, tmp_path, "ds.json")
    assert code == 1 and found(doc)[0]["key"] == "zero_optimization.stage"


def test_an_unknown_top_level_deepspeed_key_is_a_warning_that_says_it_does_nothing(cli, tmp_path):
    text = '{\n "train_batch_size": 8,\n "zero_optimization": {"stage": 1},\n "cuda_visible_devices": "0,1"\n}\n'
    (tmp_path / "ds.json").write_text(text)
    code, doc = validate(cli, tmp_path, "ds.json")
    (problem,) = found(doc)
    assert (code, problem["line"], problem["severity"]) == (1, 4, "warning")
    assert "DeepSpeed ignores top-level keys it does not know, so this setting does nothing" in problem["message"]
    (tmp_path / "ds.json").write_text(text.replace('"cuda_visible_devices": "0,1"', '"steps_per_print": 10'))
    assert validate(cli, tmp_path, "ds.json")[0] == 0


# --------------------------------------------------------------------------- accelerate


ACCELERATE = """\
    compute_environment: LOCAL_MACHINE
    distributed_type: {dt}
    {legacy}
    mixed_precision: bf16
    num_machines: 1
    num_processes: 1
    use_cpu: false
"""


def test_accelerate_legacy_dynamo_backend_is_rewritten_like_accelerate_does(cli, tmp_path):
    write(tmp_path, "a.yaml", ACCELERATE.format(dt="'NO'", legacy="dynamo_backend: 'NO'"))
    assert validate(cli, tmp_path, "a.yaml")[0] == 0
    write(tmp_path, "b.yaml", ACCELERATE.format(dt="'NO'", legacy="dynamo_backnd: 'NO'"))
    code, doc = validate(cli, tmp_path, "b.yaml")
    assert code == 1 and found(doc)[0]["key"] == "dynamo_backnd"


def test_distributed_type_no_unquoted_is_a_note_not_an_error(cli, tmp_path):
    write(tmp_path, "a.yaml", ACCELERATE.format(dt="NO", legacy=""))
    code, doc = validate(cli, tmp_path, "a.yaml")
    (problem,) = found(doc)
    assert (code, problem["severity"], problem["code"]) == (0, "note", "yaml11-bool")
    assert "treats it the same" in problem["message"]
    # mixed_precision: no stays an error: accelerate launch calls .lower() on the boolean
    write(tmp_path, "b.yaml", ACCELERATE.format(dt="'NO'", legacy="").replace("bf16", "no"))
    code, doc = validate(cli, tmp_path, "b.yaml")
    assert code == 1 and found(doc)[0]["severity"] == "error"


def test_trl_passing_a_deepspeed_only_key_through_accelerate_is_found(cli, tmp_path):
    write(tmp_path, "ulysses.yaml", """\
        compute_environment: LOCAL_MACHINE
        distributed_type: DEEPSPEED
        deepspeed_config:
          zero_stage: 3
          seq_parallel_communication_data_type: bf16
        mixed_precision: bf16
        num_processes: 4
    """)
    code, doc = validate(cli, tmp_path, "ulysses.yaml")
    (problem,) = found(doc)
    assert (code, problem["key"], problem["severity"]) == (1, "deepspeed_config.seq_parallel_communication_data_type",
                                                           "warning")


# --------------------------------------------------------------------------- TrainingArguments / TRL


@pytest.mark.parametrize("value", ["[full_shard, auto_wrap]", "full_shard auto_wrap", "true"])
def test_training_arguments_fsdp_accepts_a_list_a_string_or_true(cli, tmp_path, value):
    write(tmp_path, "args.yaml", f"output_dir: out\nper_device_train_batch_size: 2\nfsdp: {value}\n")
    assert validate(cli, tmp_path, "args.yaml")[0] == 0


def test_training_arguments_fsdp_rejects_a_number(cli, tmp_path):
    write(tmp_path, "args.yaml", "output_dir: out\nper_device_train_batch_size: 2\nfsdp: 3\n")
    code, doc = validate(cli, tmp_path, "args.yaml")
    assert code == 1 and found(doc)[0]["key"] == "fsdp"


def test_sft_max_seq_length_is_reported_as_renamed_and_chat_template_is_a_script_field(cli, tmp_path):
    write(tmp_path, "sft.yaml", """\
        model_name_or_path: Qwen/Qwen2.5-0.5B
        chat_template: "{{ messages }}"
        output_dir: out
        per_device_train_batch_size: 4
        learning_rate: 2.0e-5
        packing: true
        max_seq_length: 2048
    """)
    code, doc = validate(cli, tmp_path, "sft.yaml")
    (problem,) = found(doc)
    assert (code, problem["key"]) == (1, "max_seq_length")
    assert "renamed it to `max_length`" in problem["message"]


def test_a_dpo_file_is_not_checked_as_sft_config(cli, tmp_path):
    write(tmp_path, "dpo.yaml", """\
        model_name_or_path: zephyr-7b-sft
        beta: 0.01
        loss_type: sigmoid
        max_length: 1024
        max_prompt_length: 512
        output_dir: out
        per_device_train_batch_size: 8
        learning_rate: 5.0e-7
    """)
    assert validate(cli, tmp_path, "dpo.yaml") == (0, validate(cli, tmp_path, "dpo.yaml")[1])
    assert found(validate(cli, tmp_path, "dpo.yaml")[1]) == []


# --------------------------------------------------------------------------- templates


TEMPLATE = """\
    {
      "train_batch_size": 32,
      "train_micro_batch_size_per_gpu": BATCH_SIZE_PER_GPU,
      "fp16": {"enabled": FP16_ENABLE}
    }
"""


def test_a_template_is_reported_once_as_a_template_not_a_parse_error(cli, tmp_path):
    write(tmp_path, "cfg/ds_config_TEMPLATE.json", TEMPLATE)
    result = cli("validate", "cfg", cwd=tmp_path)
    assert result.code == 0
    assert result.out.count("ds_config_TEMPLATE.json") == 1
    assert "a template, not validated: its placeholders (BATCH_SIZE_PER_GPU, FP16_ENABLE)" in result.out


def test_a_broken_json_without_placeholders_is_still_a_parse_error(cli, tmp_path):
    write(tmp_path, "cfg/ds_config.json", '{"train_batch_size": 32,, "fp16": {}}\n')
    result = cli("validate", "cfg", cwd=tmp_path)
    assert result.code == 3 and "ds_config.json:1" in result.out


# --------------------------------------------------------------------------- Hydra


TRAINER_NODE = """\
    defaults:
      - default
    _target_: lightning.pytorch.trainer.Trainer
    max_epochs: 10
"""


def test_a_hydra_trainer_files_own_defaults_list_is_not_a_trainer_key(cli, tmp_path):
    write(tmp_path, "trainer.yaml", TRAINER_NODE)
    code, doc = validate(cli, tmp_path, "trainer.yaml")
    assert (code, found(doc)) == (0, [])


def test_defaults_inside_a_nested_trainer_node_is_a_trainer_argument(cli, tmp_path):
    write(tmp_path, "train.yaml", "trainer:\n" + textwrap.indent(textwrap.dedent(TRAINER_NODE), "  "))
    code, doc = validate(cli, tmp_path, "train.yaml")
    assert code == 1 and [p["key"] for p in found(doc)] == ["trainer.defaults"]


def test_hydra_command_line_overrides_are_validated_like_file_values(cli):
    result = cli("audit", "train.py", "--select", "PF601,PF602", "--no-cache", "--", "+trainer.max_epoch=5",
                 cwd=LHT)
    assert result.code == 1
    assert "train.py:6:1: PF601 Hydra override `+trainer.max_epoch=5`: unknown key 'max_epoch' " \
           "(did you mean 'max_epochs'?)" in result.out
    quiet = cli("audit", "train.py", "--select", "PF601,PF602", "--no-cache", "--", "trainer.max_epochs=5", cwd=LHT)
    assert quiet.code == 0 and "PF60" not in quiet.out


# --------------------------------------------------------------------------- check DIR


def test_check_dir_with_a_broken_deepspeed_config_exits_1_with_the_finding(cli, tmp_path):
    write(tmp_path, "train.py", "print('hi')\n")
    write(tmp_path, "configs/ds_config.json", """\
        {
          "train_batch_size": 30,
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4
        }
    """)
    write(tmp_path, "configs/llama_lora.yaml", TORCHTUNE)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert result.code == 1
    assert "configs/ds_config.json:2:3: PF502 train_batch_size 30 is not a multiple of" in result.out
    assert result.out.rstrip().endswith("Configs: 1 checked (deepspeed), 1 not recognised as a config")


def test_check_dir_with_a_valid_deepspeed_config_is_quiet(cli, tmp_path):
    write(tmp_path, "train.py", "print('hi')\n")
    write(tmp_path, "configs/ds_config.json", """\
        {
          "train_batch_size": 32,
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4,
          "zero_optimization": {"stage": 2}
        }
    """)
    write(tmp_path, "configs/ds_config_TEMPLATE.json", TEMPLATE)
    result = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert result.code == 0, result.out
    assert "Configs: 1 checked (deepspeed), 1 recognised but not validated" in result.out


def test_check_json_and_sarif_carry_the_config_counts_of_the_text_summary(cli, tmp_path):
    import json

    write(tmp_path, "train.py", "print('hi')\n")
    write(tmp_path, "configs/ds_config.json", """\
        {
          "train_batch_size": 30,
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4
        }
    """)
    write(tmp_path, "configs/llama_lora.yaml", TORCHTUNE)
    write(tmp_path, "configs/ds_config_TEMPLATE.json", TEMPLATE)
    counts = {"checked": 1, "kinds": {"deepspeed": 1}, "skipped": 1, "not_recognised": 1}
    text = cli("check", ".", "--no-cache", cwd=tmp_path)
    assert text.out.rstrip().endswith(
        "Configs: 1 checked (deepspeed), 1 recognised but not validated, 1 not recognised as a config")
    result = cli("check", ".", "--no-cache", "--format", "json", cwd=tmp_path)
    doc = json.loads(result.out)
    assert result.code == 1 and doc["configs"] == counts
    assert [f["code"] for f in doc["findings"]] == ["PF502"]
    sarif = json.loads(cli("check", ".", "--no-cache", "--format", "sarif", cwd=tmp_path).out)
    assert sarif["runs"][0]["properties"]["configs"] == counts


def test_check_json_without_config_files_has_no_config_counts(cli, tmp_path):
    import json

    write(tmp_path, "train.py", "print('hi')\n")
    doc = json.loads(cli("check", ".", "--no-cache", "--format", "json", cwd=tmp_path).out)
    assert "configs" not in doc and doc["summary"]["files_checked"] == 1


def test_check_reports_a_config_schema_problem(cli, tmp_path):
    write(tmp_path, "accelerate.yaml", ACCELERATE.format(dt="MULTI_GPU", legacy="num_machine: 2"))
    result = cli("check", "accelerate.yaml", "--no-cache", cwd=tmp_path)
    assert result.code == 1
    assert "accelerate.yaml:3:1: PF601 unknown key 'num_machine'" in result.out


# --------------------------------------------------------------------------- the project's own fields


LLAMA_FACTORY = """\
    model_name_or_path: Qwen/Qwen3-4B-Instruct-2507
    stage: sft
    do_train: true
    finetuning_type: lora
    lora_rank: 8
    output_dir: saves/qwen3-4b/lora/sft
    per_device_train_batch_size: 1
    gradient_accumulation_steps: 8
    learning_rate: 1.0e-4
"""


def test_fields_the_projects_own_dataclasses_declare_are_not_typos(cli, tmp_path):
    write(tmp_path, "pyproject.toml", "[project]\nname = 'x'\n")
    write(tmp_path, "src/hparams.py", """\
        from dataclasses import dataclass, field

        @dataclass
        class FinetuningArguments:
            lora_rank: int = field(default=8)
    """)
    write(tmp_path, "examples/lora_sft.yaml", LLAMA_FACTORY)
    code, doc = validate(cli, tmp_path, "examples")
    assert (code, found(doc), doc["counts"]["checked"]) == (0, [], 1)
    checked = cli("check", "examples", "--no-cache", cwd=tmp_path)  # check and audit read them too
    assert checked.code == 0 and "PF601" not in checked.out
    assert cli("audit", "--config", "examples/lora_sft.yaml", "--select", "PF601", "--no-cache",
               cwd=tmp_path).code == 0


def test_without_a_declaring_dataclass_a_near_miss_is_still_reported(cli, tmp_path):
    # LLaMA-Factory's own fields (`lora_rank`) are known even where the config ships without its code
    # (hunt45: model repositories' llamafactory-cli configs); a true typo beside them is still reported
    write(tmp_path, "pyproject.toml", "[project]\nname = 'x'\n")
    write(tmp_path, "examples/lora_sft.yaml", LLAMA_FACTORY)
    code, doc = validate(cli, tmp_path, "examples")
    assert (code, found(doc)) == (0, [])
    write(tmp_path, "examples/lora_sft.yaml", LLAMA_FACTORY.replace("per_device_train_batch_size", "per_device_train_batchsize"))
    code, doc = validate(cli, tmp_path, "examples")
    assert code == 1 and [p["key"] for p in found(doc)] == ["per_device_train_batchsize"]


def test_a_deepspeed_comment_key_is_quiet_and_an_unread_block_is_not(cli, tmp_path):
    base = {"train_batch_size": "auto", "zero_optimization": {"stage": 3}}
    (tmp_path / "a.json").write_text(json.dumps({"_comment": "supported models: ...", **base}, indent=1))
    assert found(validate(cli, tmp_path, "a.json")[1]) == []
    (tmp_path / "b.json").write_text(json.dumps({**base, "monitor_config": {"enabled": True}}, indent=1))
    code, doc = validate(cli, tmp_path, "b.json")
    assert code == 1 and [p["key"] for p in found(doc)] == ["monitor_config"]


def test_a_trainer_block_of_another_framework_is_not_a_lightning_trainer(cli, tmp_path):
    write(tmp_path, "cfg/ppo.yaml", "model:\n  name: gpt2\ntrainer:\n  type: ppo\n  rollouts: 4\n  kl_coef: 0.1\n")
    assert validate(cli, tmp_path, "cfg")[1]["counts"]["not_recognised"] == 1
    write(tmp_path, "cfg/cli.yaml", "seed_everything: 1\nmodel:\n  lr: 0.1\ntrainer:\n  max_epoch: 3\n  devices: 2\n")
    code, doc = validate(cli, tmp_path, "cfg/cli.yaml")
    assert code == 1 and [p["key"] for p in found(doc)] == ["trainer.max_epoch"]


def test_a_projects_own_trainer_with_nested_sections_is_not_a_lightning_trainer(cli, tmp_path):
    # facebookresearch/sam2 issue 420's shape: `trainer:` holds the project's own settings,
    # `optim:` a mapping Trainer() has no argument for (held-out bench case
    # ho-hy-sam2-optimizer-without-params flagged it as an unknown Trainer key)
    write(tmp_path, "conf/config.yaml",
          "trainer:\n  max_epochs: 40\n  optim:\n    optimizer:\n      _target_: torch.optim.AdamW\n"
          "      lr: 5.0e-6\nmodel:\n  _target_: torch.nn.Linear\n  in_features: 256\n")
    code, doc = validate(cli, tmp_path, "conf")
    assert (code, found(doc), doc["counts"]["not_recognised"]) == (0, [], 1)
    # a LightningCLI trainer whose mapping is a class_path node is still Trainer()'s: its typo is found
    write(tmp_path, "cli/cli.yaml",
          "model:\n  lr: 0.1\ntrainer:\n  max_epoch: 3\n  devices: 2\n"
          "  logger:\n    class_path: lightning.pytorch.loggers.CSVLogger\n    init_args:\n      save_dir: logs\n")
    code, doc = validate(cli, tmp_path, "cli/cli.yaml")
    assert code == 1 and [p["key"] for p in found(doc)] == ["trainer.max_epoch"]


_SFT_OLD_NAME = """\
    model_name_or_path: Qwen/Qwen2.5-0.5B
    output_dir: out
    per_device_train_batch_size: 4
    max_seq_length: 2048
"""
_DECLARES_OLD_NAME = """\
    from dataclasses import dataclass

    @dataclass
    class ScriptArguments:
        max_seq_length: int = 512
"""


def test_a_config_outside_any_project_is_not_judged_by_scripts_in_the_temporary_folder(cli, tmp_path, monkeypatch):
    # the temporary folder (or home) holds unrelated scripts and virtual environments: a dataclass there
    # declaring the renamed key must not silence the report on a config copied below it
    import tempfile

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    write(tmp_path, "someone_else.py", _DECLARES_OLD_NAME)
    write(tmp_path, "job/conf/sft.yaml", _SFT_OLD_NAME)
    code, doc = validate(cli, tmp_path / "job" / "conf", "sft.yaml")
    assert (code, [p["key"] for p in found(doc)]) == (1, ["max_seq_length"])


def test_the_script_beside_the_config_still_declares_its_own_fields(cli, tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    write(tmp_path, "job/train.py", _DECLARES_OLD_NAME)
    write(tmp_path, "job/sft.yaml", _SFT_OLD_NAME)
    code, doc = validate(cli, tmp_path / "job", "sft.yaml")
    assert (code, found(doc)) == (0, [])


def test_a_requirements_file_in_the_temporary_folder_pins_nothing_of_a_config_below_it(cli, tmp_path, monkeypatch):
    # an old trl pinned by some other file directly in the temporary folder would turn the renamed-key
    # error into a note; it is not this config's project
    import tempfile

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    write(tmp_path, "requirements.txt", "trl==0.12.0\n")
    write(tmp_path, "job/conf/sft.yaml", _SFT_OLD_NAME)
    code, doc = validate(cli, tmp_path / "job" / "conf", "sft.yaml")
    assert (code, [p["severity"] for p in found(doc)]) == (1, ["warning"])
