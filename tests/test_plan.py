from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from preflight.diagnostics import FileError
from preflight.plan import (
    FIELDS,
    SCHEMA_PATH,
    Fact,
    Source,
    TrainingPlan,
    accepts,
    load_plan,
    main,
    plan_json_schema,
    schema_text,
)

REPO = Path(__file__).resolve().parent.parent
CODE = Source("code", "train.py", 12, None, "DataLoader(batch_size=...)")
CONFIG = Source("config", "ds_config.json", 3, "train_micro_batch_size_per_gpu")
CLI = Source("cli", None, None, "--batch_size", "--batch_size 64")


def _sample_plan() -> TrainingPlan:
    plan = TrainingPlan()
    plan.add("batch.micro", 8, CODE, adapter="pytorch")
    plan.add("batch.micro", 4, CONFIG, adapter="deepspeed")
    plan.add("dist.sharding", "zero3", Source("config", "ds_config.json", 14, "zero_optimization.stage"),
             adapter="deepspeed")
    plan.add("peft.target_modules", ["q_proj", "v_proj"], Source("code", "train.py", 30), "medium",
             adapter="pytorch")
    plan.add("memory.gradient_checkpointing", True, Source("code", "train.py", 20), adapter="pytorch")
    plan.add("model.ref", "meta-llama/Llama-2-7b-hf", Source("code", "train.py", 5), adapter="pytorch",
             priority=2)
    plan.add_input("train.py", "python", "abc")
    plan.add_input("ds_config.json", "json")
    plan.note("deepspeed: ds.json:4: gradient_accumulation_steps is \"auto\"")
    return plan


# -- the field table -----------------------------------------------------------


def test_field_table_covers_the_design_fields():
    required = (
        "model.ref", "model.class_name", "model.num_parameters", "task.mode", "precision.mode",
        "precision.weights_bits", "optimizer.name", "optimizer.state_dtype", "batch.micro",
        "batch.grad_accum", "batch.global", "data.seq_len", "data.image_size",
        "generation.max_new_tokens", "generation.num_beams", "generation.use_cache",
        "dist.devices_per_node", "dist.nodes", "dist.world_size", "dist.sharding", "dist.offload_params",
        "dist.offload_optimizer", "memory.gradient_checkpointing", "model.attn_implementation",
        "compile.enabled", "peft.method", "peft.rank", "peft.target_modules", "data.num_workers",
        "data.pin_memory", "data.sampler", "framework.names",
    )
    assert set(required) <= set(FIELDS)
    for spec in FIELDS.values():
        assert spec.description and spec.type in ("str", "int", "bool", "float", "list[str]")
    assert FIELDS["dist.sharding"].enum == ("none", "ddp", "fsdp_full", "fsdp_hybrid", "fsdp_grad_op",
                                           "zero1", "zero2", "zero3")
    assert FIELDS["precision.weights_bits"].enum == (4, 8, 16, 32)


@pytest.mark.parametrize(("field", "value"), [
    ("batch.micro", "8"),
    ("batch.micro", True),  # a bool is not an int here
    ("batch.micro", 8.0),
    ("batch.micro", 0),  # below the minimum
    ("memory.gradient_checkpointing", 1),
    ("dist.sharding", "zero4"),
    ("precision.weights_bits", 12),
    ("peft.target_modules", "q_proj"),
    ("peft.target_modules", ["q_proj", 3]),
    ("no.such.field", 1),
])
def test_wrong_type_or_unknown_field_is_a_programming_error(field, value):
    with pytest.raises(ValueError):
        TrainingPlan().add(field, value, CODE, adapter="test")
    assert not accepts(field, value)


def test_bad_source_kind_and_confidence_are_errors():
    with pytest.raises(ValueError, match="source kind"):
        Source("guess")
    with pytest.raises(ValueError, match="confidence"):
        TrainingPlan().add("batch.micro", 8, CODE, "certain", adapter="test")
    with pytest.raises(ValueError):
        TrainingPlan().add("batch.micro", 8, "train.py:3", adapter="test")  # type: ignore[arg-type]


# -- facts, conflicts, resolution --------------------------------------------------


def test_conflicting_facts_are_all_kept_and_config_wins_over_code():
    plan = TrainingPlan()
    plan.add("batch.micro", 8, CODE, adapter="pytorch")
    plan.add("batch.micro", 4, CONFIG, adapter="deepspeed")
    assert [f.value for f in plan.facts("batch.micro")] == [8, 4]
    conflicts = plan.conflicts()
    assert list(conflicts) == ["batch.micro"]
    assert {f.value for f in conflicts["batch.micro"]} == {4, 8}
    winner = plan.resolve("batch.micro")
    assert winner is not None and winner.value == 4 and winner.source.kind == "config"
    assert plan.value("batch.micro") == 4


def test_precedence_order_priority_confidence_and_insertion():
    plan = TrainingPlan()
    plan.add("batch.micro", 16, Source("default"), adapter="a")
    plan.add("batch.micro", 8, CODE, adapter="a")
    assert plan.value("batch.micro") == 8
    plan.add("batch.micro", 4, CONFIG, adapter="a")
    plan.add("batch.micro", 2, Source("env", key="MICRO"), adapter="a")
    assert plan.value("batch.micro") == 2
    plan.add("batch.micro", 64, CLI, adapter="a")
    assert plan.value("batch.micro") == 64
    # an explicit priority (framework-specific precedence) beats the source kind
    plan.add("batch.micro", 3, Source("code", "train.py", 40), adapter="accelerate", priority=10)
    assert plan.value("batch.micro") == 3
    # same kind: higher confidence, then the first added
    other = TrainingPlan()
    other.add("optimizer.name", "SGD", Source("code", "a.py", 1), "low", adapter="x")
    other.add("optimizer.name", "AdamW", Source("code", "a.py", 2), "medium", adapter="x")
    other.add("optimizer.name", "Adam", Source("code", "a.py", 3), "medium", adapter="x")
    assert other.value("optimizer.name") == "AdamW"


def test_identical_facts_from_the_same_source_are_deduplicated():
    plan = TrainingPlan()
    first = plan.add("batch.micro", 8, CODE, adapter="pytorch")
    again = plan.add("batch.micro", 8, CODE, adapter="lightning")
    assert again is first
    plan.add("batch.micro", 8, Source("code", "train.py", 13), adapter="pytorch")
    assert len(plan.facts("batch.micro")) == 2
    assert plan.conflicts() == {}  # same value from two places is no conflict


def test_defaults_overridden_by_explicit_values_are_not_conflicts():
    plan = TrainingPlan()
    plan.add("data.num_workers", 0, Source("default", "train.py", 7, detail="DataLoader default"), adapter="p")
    plan.add("data.num_workers", 4, Source("code", "train.py", 7), adapter="p")
    assert plan.conflicts() == {}
    assert "data.num_workers" in plan.conflicts(include_defaults=True)
    assert plan.value("data.num_workers") == 4


def test_reading_an_empty_field():
    plan = TrainingPlan()
    assert plan.facts("batch.micro") == []
    assert plan.resolve("batch.micro") is None
    assert plan.value("batch.micro", 1) == 1
    assert "batch.micro" not in plan
    with pytest.raises(ValueError):
        plan.facts("batch.size")


def test_list_values_are_immutable_tuples_and_json_lists():
    plan = _sample_plan()
    fact = plan.resolve("peft.target_modules")
    assert isinstance(fact, Fact) and fact.value == ("q_proj", "v_proj")
    assert plan.to_dict()["fields"]["peft.target_modules"][0]["value"] == ["q_proj", "v_proj"]


# -- serialisation -------------------------------------------------------------------


def test_to_dict_is_deterministic_and_round_trips():
    plan = _sample_plan()
    data = plan.to_dict()
    assert data["version"] == 1
    assert list(data["fields"]) == sorted(data["fields"])
    assert data["fields"]["batch.micro"][1] == {
        "value": 4, "confidence": "high", "adapter": "deepspeed", "priority": 0,
        "source": {"kind": "config", "path": "ds_config.json", "line": 3,
                   "key": "train_micro_batch_size_per_gpu", "detail": None}}
    assert data["inputs"][0] == {"path": "train.py", "kind": "python", "digest": "abc"}
    again = TrainingPlan.from_dict(json.loads(plan.to_json()))
    assert again.to_dict() == data
    assert again.to_json() == plan.to_json()
    assert again.value("model.ref") == "meta-llama/Llama-2-7b-hf"
    assert again.resolve("model.ref").priority == 2  # type: ignore[union-attr]
    assert list(again.conflicts()) == ["batch.micro"]


def test_yaml_round_trip():
    import yaml

    plan = _sample_plan()
    text = plan.to_yaml()
    assert text.startswith("version: 1\n")
    again = TrainingPlan.from_dict(yaml.safe_load(text))
    assert again.to_dict() == plan.to_dict()


def test_from_dict_errors_name_the_path():
    good = _sample_plan().to_dict()
    bad = json.loads(json.dumps(good))
    bad["fields"]["batch.micro"][0]["value"] = "eight"
    with pytest.raises(ValueError, match=r'\$\.fields\["batch\.micro"\]\[0\]: plan field'):
        TrainingPlan.from_dict(bad)
    bad = json.loads(json.dumps(good))
    bad["version"] = 2
    with pytest.raises(ValueError, match="unsupported plan version 2"):
        TrainingPlan.from_dict(bad)


# -- the JSON Schema -----------------------------------------------------------------


def test_committed_schema_equals_the_generated_one():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "preflight/schemas/plan.schema.json is stale: run python -m preflight.plan --write-schema")
    assert main(["--check-schema"]) == 0


def test_schema_is_valid_and_accepts_emitted_plans():
    from jsonschema import Draft202012Validator

    schema = plan_json_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(schema["properties"]["fields"]["properties"]) == set(FIELDS)
    Draft202012Validator(schema).validate(_sample_plan().to_dict())


def test_write_schema_module_entry_point():
    proc = subprocess.run([sys.executable, "-m", "preflight.plan", "--check-schema"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert main(["--bogus"]) == 2


# -- load_plan -------------------------------------------------------------------------


def test_load_plan_json_and_yaml(tmp_path):
    plan = _sample_plan()
    (tmp_path / "plan.json").write_text(plan.to_json(), encoding="utf-8")
    (tmp_path / "plan.yaml").write_text(plan.to_yaml(), encoding="utf-8")
    for name in ("plan.json", "plan.yaml"):
        loaded = load_plan(tmp_path / name)
        assert isinstance(loaded, TrainingPlan), loaded
        assert loaded.to_dict() == plan.to_dict()


def test_load_plan_hand_written_yaml_minimal(tmp_path):
    (tmp_path / "p.yml").write_text(
        "version: 1\nfields:\n  batch.micro:\n    - value: 8\n      source: {kind: user}\n", encoding="utf-8")
    loaded = load_plan(tmp_path / "p.yml")
    assert isinstance(loaded, TrainingPlan)
    fact = loaded.resolve("batch.micro")
    assert fact is not None and fact.value == 8 and fact.source.kind == "user" and fact.confidence == "high"


def test_load_plan_bad_json(tmp_path):
    (tmp_path / "plan.json").write_text('{\n  "version": 1,\n  "fields": {\n  }\n  "inputs": []\n}\n')
    err = load_plan(tmp_path / "plan.json")
    assert isinstance(err, FileError)
    assert err.message == "invalid JSON: Expecting ',' delimiter" and err.line == 5


def test_load_plan_wrong_version(tmp_path):
    (tmp_path / "plan.json").write_text('{\n  "fields": {},\n  "version": 7\n}\n')
    err = load_plan(tmp_path / "plan.json")
    assert isinstance(err, FileError)
    assert "unsupported plan version 7" in err.message and err.line == 3
    (tmp_path / "v.json").write_text('{"fields": {}}')
    err = load_plan(tmp_path / "v.json")
    assert isinstance(err, FileError) and "version" in err.message


def test_load_plan_schema_violation_names_the_json_path_and_line(tmp_path):
    data = _sample_plan().to_dict()
    data["fields"]["dist.sharding"][0]["value"] = "zero4"
    (tmp_path / "plan.json").write_text(json.dumps(data, indent=2))
    err = load_plan(tmp_path / "plan.json")
    assert isinstance(err, FileError)
    assert err.message.startswith('invalid plan: $.fields["dist.sharding"][0].value: ')
    assert "'zero4' is not one of" in err.message
    lines = (tmp_path / "plan.json").read_text().splitlines()
    assert err.line is not None and '"value": "zero4"' in lines[err.line - 1]


def test_load_plan_unknown_field_and_non_mapping(tmp_path):
    (tmp_path / "p.yaml").write_text("version: 1\nfields:\n  batch.size: []\n")
    err = load_plan(tmp_path / "p.yaml")
    assert isinstance(err, FileError) and "batch.size" in err.message and err.line == 3
    (tmp_path / "l.json").write_text("[1, 2]")
    err = load_plan(tmp_path / "l.json")
    assert isinstance(err, FileError) and "not a preflight plan" in err.message
    (tmp_path / "p.txt").write_text("{}")
    err = load_plan(tmp_path / "p.txt")
    assert isinstance(err, FileError) and ".json" in err.message
    err = load_plan(tmp_path / "missing.json")
    assert isinstance(err, FileError) and "no such file" in err.message


def test_importing_the_plan_modules_stays_light():
    code = ("import sys, preflight.plan, preflight.loaders, preflight.adapters_api, preflight.audit\n"
            "print([m for m in ('yaml', 'jsonschema', 'omegaconf', 'torch', 'libcst') if m in sys.modules])")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
