from __future__ import annotations

import json
from pathlib import Path

import pytest

from preflight.diagnostics import FileError
from preflight.loaders import MAX_YAML_NODES, LoadedConfig, load_config, load_config_text
from preflight.sources import read_source

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "plan"


def _ok(text: str, kind: str) -> LoadedConfig:
    loaded = load_config_text(text, kind, f"cfg.{kind}")
    assert isinstance(loaded, LoadedConfig), loaded
    return loaded


def _err(text: str, kind: str) -> FileError:
    loaded = load_config_text(text, kind, f"cfg.{kind}")
    assert isinstance(loaded, FileError), loaded
    return loaded


# -- JSON ---------------------------------------------------------------------------------


def test_json_key_lines_nested_and_in_lists():
    text = (
        '{\n'
        '  "zero_optimization": {\n'
        '    "stage": 3,\n'
        '    "offload_param": {"device": "cpu"}\n'
        '  },\n'
        '  "betas": [0.9,\n'
        '            0.999],\n'
        '  "weird \\"key\\" \\u00e9": {"a:b": [{"x": "{not a brace}"}]},\n'
        '  "last": null\n'
        '}\n'
    )
    cfg = _ok(text, "json")
    assert cfg.kind == "json"
    assert cfg.data["zero_optimization"]["stage"] == 3
    assert cfg.line_of(()) == 1
    assert cfg.line_of(("zero_optimization",)) == 2
    assert cfg.line_of(("zero_optimization", "stage")) == 3
    assert cfg.line_of(("zero_optimization", "offload_param", "device")) == 4
    assert cfg.line_of(("betas", 0)) == 6
    assert cfg.line_of(("betas", 1)) == 7
    assert cfg.line_of(('weird "key" é', "a:b", 0, "x")) == 8
    assert cfg.line_of(("last",)) == 9
    assert cfg.line_of(("missing",)) is None
    assert cfg.line_of(("zero_optimization", "nope"), nearest=True) == 2
    assert cfg.get(("zero_optimization", "offload_param", "device")) == "cpu"
    assert cfg.get(("betas", 1)) == 0.999
    assert cfg.get(("betas", 5), "dflt") == "dflt"
    assert cfg.has(("last",)) and not cfg.has(("last", "x"))


def test_json_fixture_lines():
    source = read_source(FIXTURES / "ds_zero3.json", "ds_zero3.json", "json")
    assert not isinstance(source, FileError)
    cfg = load_config(source)
    assert isinstance(cfg, LoadedConfig)
    assert cfg.line_of(("zero_optimization", "stage")) == 14
    assert cfg.line_of(("zero_optimization", "offload_param", "device")) == 17
    assert cfg.line_of(("optimizer", "params", "betas", 1)) == 11


def test_json_duplicate_keys_later_wins_with_its_line():
    cfg = _ok('{\n "a": 1,\n "a": 2\n}', "json")
    assert cfg.data == {"a": 2} and cfg.line_of(("a",)) == 3


@pytest.mark.parametrize(("text", "message", "line", "column"), [
    ('{\n  "a": 1\n  "b": 2\n}\n', "invalid JSON: Expecting ',' delimiter", 3, 3),
    ("", "invalid JSON: Expecting value", 1, 1),
])
def test_broken_json_has_a_line(text, message, line, column):
    err = _err(text, "json")
    assert (err.message, err.line, err.column) == (message, line, column)
    assert err.render().startswith(f"cfg.json:{line}:{column}: error: invalid JSON")


@pytest.mark.parametrize(("text", "lines"), [
    ('{"a": [1, 2,]}', {1}),
    ('{\n  "a": 1,\n}', {2, 3}),  # Python 3.13 names the trailing comma (line 2), older the brace
])
def test_trailing_commas_are_reported(text, lines):
    err = _err(text, "json")
    assert err.message.startswith("invalid JSON: ") and err.line in lines


def test_deeply_nested_json_is_a_clear_error():
    err = _err("[" * 200_000 + "]" * 200_000, "json")
    assert "nested too deeply" in err.message


def test_json_lines_for_generated_documents():
    """Every key of a pretty-printed document maps to the line that spells it."""
    doc = {"a": {"b": [1, {"c": {"d": "x,y:[z]"}}], "e\\": True}, "f": [[], {}, [3, [4]]],
           "g": {"h": {"i": {"j": None}}}}
    text = json.dumps(doc, indent=2)
    cfg = _ok(text, "json")
    lines = text.splitlines()

    def walk(value, path):
        if isinstance(value, dict):
            for k, v in value.items():
                line = cfg.line_of((*path, k))
                assert line is not None and json.dumps(k) + ":" in lines[line - 1], (path, k)
                walk(v, (*path, k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                assert cfg.line_of((*path, i)) is not None
                walk(v, (*path, i))

    walk(doc, ())


def test_json_scanner_is_linear():
    from conftest import cpu_cost

    def doc(n: int) -> str:
        return json.dumps({f"k{i}": {"v": [i, i + 1, {"w": str(i)}]} for i in range(n)}, indent=1)

    big = doc(20_000)
    cfg = _ok(big, "json")
    assert cfg.line_of(("k19999", "v", 2, "w")) is not None
    small_doc, large_doc = doc(2_000), doc(8_000)
    small = cpu_cost(lambda: _ok(small_doc, "json"), repeat=3)
    large = cpu_cost(lambda: _ok(large_doc, "json"), repeat=3)
    assert large < small * 8 + 0.05, (small, large)  # linear ~4x, quadratic ~16x


# -- YAML ---------------------------------------------------------------------------------


YAML_TEXT = """\
# accelerate-style config
compute_environment: LOCAL_MACHINE
defaults: &defaults
  lr: 1.0e-4
  warmup: 100
deepspeed_config:
  zero_stage: 3
  offload_optimizer_device: cpu
train:
  <<: *defaults
  lr: 3.0e-4
  layers:
    - q_proj
    - name: v_proj
      rank: 8
flags: {compile: yes, bf16: true}
stamp: 2024-01-02
"""


def test_yaml_key_lines_nested_lists_and_merges():
    cfg = _ok(YAML_TEXT, "yaml")
    assert cfg.kind == "yaml"
    assert cfg.data["deepspeed_config"] == {"zero_stage": 3, "offload_optimizer_device": "cpu"}
    assert cfg.line_of(("deepspeed_config", "zero_stage")) == 7
    assert cfg.data["train"]["lr"] == 3.0e-4 and cfg.data["train"]["warmup"] == 100
    assert cfg.line_of(("train", "lr")) == 11
    assert cfg.line_of(("train", "warmup")) == 5  # merged from the anchor: where it is written
    assert cfg.line_of(("train", "layers", 0)) == 13
    assert cfg.line_of(("train", "layers", 1, "rank")) == 15
    assert cfg.data["flags"] == {"compile": True, "bf16": True}  # YAML 1.1 booleans, as PyYAML
    assert cfg.line_of(("flags", "bf16")) == 16
    assert cfg.data["stamp"] == "2024-01-02"  # dates stay JSON-compatible strings
    json.dumps(cfg.data)


def test_yaml_multiple_documents_duplicates_and_empty():
    cfg = _ok("a: 1\na: 2\n---\nb: 3\n", "yaml")
    assert cfg.data == {"a": 2} and cfg.line_of(("a",)) == 2
    assert any("more than one YAML document" in n for n in cfg.notes)
    assert any("duplicate key 'a'" in n for n in cfg.notes)
    empty = _ok("# nothing here\n", "yaml")
    assert empty.data is None


@pytest.mark.parametrize(("text", "line", "fragment"), [
    ("a: 1\nb: [1, 2\nc: 3\n", 3, "expected ',' or ']'"),
    ("a:\n  b: 1\n c: 2\n", 3, "invalid YAML"),
    ("a: 'unterminated\n", 2, "invalid YAML"),
    ("a: *nope\n", 1, "found undefined alias"),
    ("a: b: c\n", 1, "mapping values are not allowed here"),
])
def test_broken_yaml_has_a_line(text, line, fragment):
    err = _err(text, "yaml")
    assert err.line == line, err
    assert fragment in err.message and err.message.startswith("invalid YAML")


@pytest.mark.parametrize("tag", [
    "!!python/object/apply:os.system",
    "!!python/object/new:os.system",
])
def test_python_tags_are_never_constructed(tmp_path, tag):
    canary = tmp_path / "canary"
    text = f"model: gpt2\nhook: {tag} ['touch {canary}']\n"
    path = tmp_path / "evil.yaml"
    path.write_text(text)
    source = read_source(path, "evil.yaml", "yaml")
    assert not isinstance(source, FileError)
    err = load_config(source)
    assert isinstance(err, FileError)
    assert err.line == 2
    assert f"unsupported YAML tag '{tag}'" in err.message
    assert "never constructs Python objects" in err.message
    assert not canary.exists()


def test_python_name_tag_is_an_error():
    err = _err("f: !!python/name:os.system ''\n", "yaml")
    assert "!!python/name:os.system" in err.message


def test_custom_tags_are_read_as_plain_data_with_a_note():
    cfg = _ok("path: !ENV ${HOME}/data\nlist: !custom [1, 2]\n", "yaml")
    assert cfg.data == {"path": "${HOME}/data", "list": [1, 2]}
    assert len(cfg.notes) == 2 and "!ENV" in cfg.notes[0]


def test_alias_bomb_is_refused_quickly():
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
        prev = name
    err = _err("\n".join(lines) + "\n", "yaml")  # without the cap: 9**9 nodes, no answer
    assert f"more than {MAX_YAML_NODES}" in err.message and "alias" in err.message


def test_recursive_alias_and_collection_keys_are_errors():
    assert "recursive YAML alias" in _err("a: &x [1, *x]\n", "yaml").message
    assert "mapping key" in _err("? [1, 2]\n: v\n", "yaml").message


def test_deeply_nested_yaml_is_a_clear_error():
    err = _err("[" * 50_000 + "]" * 50_000, "yaml")
    assert "nested too deeply" in err.message


# -- TOML ---------------------------------------------------------------------------------


TOML_TEXT = '''\
title = "run"   # a comment with = sign

[model]
name = "meta-llama/Llama-2-7b-hf"
dims.hidden = 4096
"quoted.key" = 1
prompt = """
fake = 1
[not_a_table]
"""
layers = [
  "q_proj",
  "v_proj",
]

[training.optim]
lr = 3e-4

[[runs]]
seed = 1

[[runs]]
seed = 2
[runs.extra]
note = 'literal'
started = 2024-01-02T03:04:05Z
'''


def test_toml_key_lines():
    cfg = _ok(TOML_TEXT, "toml")
    assert cfg.kind == "toml"
    assert cfg.data["model"]["dims"] == {"hidden": 4096}
    assert "not_a_table" not in cfg.data
    assert cfg.line_of(("title",)) == 1
    assert cfg.line_of(("model",)) == 3
    assert cfg.line_of(("model", "name")) == 4
    assert cfg.line_of(("model", "dims", "hidden")) == 5
    assert cfg.line_of(("model", "quoted.key")) == 6
    assert cfg.line_of(("model", "prompt")) == 7
    assert cfg.line_of(("model", "layers")) == 11
    assert cfg.line_of(("not_a_table",)) is None
    assert cfg.line_of(("training", "optim", "lr")) == 17
    assert cfg.line_of(("runs", 0, "seed")) == 20
    assert cfg.line_of(("runs", 1, "seed")) == 23
    assert cfg.line_of(("runs", 1, "extra", "note")) == 25
    assert cfg.line_of(("model", "layers", 1), nearest=True) == 11
    assert cfg.data["runs"][1]["extra"]["started"].startswith("2024-01-02T03:04:05")
    json.dumps(cfg.data)


@pytest.mark.parametrize(("text", "line"), [
    ("a = 1\nb = \n", 2),
    ("a = 1\na = 2\n", 2),
    ("[x]\ny = [1, 2\n", 3),
])
def test_broken_toml_has_a_line(text, line):
    err = _err(text, "toml")
    assert err.message.startswith("invalid TOML: ") and "(at line" not in err.message
    assert err.line == line


def test_unknown_kind_is_an_error():
    err = load_config_text("x", "ini", "cfg.ini")
    assert isinstance(err, FileError) and "not a config file" in err.message


def test_yaml_control_character_is_a_located_error():
    # found by tests/test_properties.py: PyYAML's reader raised from the loader's constructor
    err = _err("a: 1\nb: x\x1fy\n", "yaml")
    assert (err.line, err.column) == (2, 5)
    assert "U+001F is not allowed in YAML" in err.message


def test_python_tag_value_left_out_when_the_reader_asks(tmp_path):
    """A yacs ``merge_from_file`` reads a base YAML with ``MIN_SIZE_TRAIN: !!python/object/apply:eval [...]``
    (facebookresearch/MaskFormer @ da3e60d configs/ade20k-150/Base-ADE20K-150.yaml:34): that key is left out
    (unknown), the file's other keys are read, nothing is constructed."""
    canary = tmp_path / "canary"
    text = f"SOLVER:\n  IMS_PER_BATCH: 16\nINPUT:\n  MIN_SIZE_TRAIN: !!python/object/apply:os.system ['touch {canary}']\n"
    path = tmp_path / "base.yaml"
    path.write_text(text)
    source = read_source(path, "base.yaml", "yaml")
    assert not isinstance(source, FileError)
    loaded = load_config(source, skip_python_tags=True)
    assert isinstance(loaded, LoadedConfig), loaded
    assert loaded.data == {"SOLVER": {"IMS_PER_BATCH": 16}, "INPUT": {}}
    assert any("MIN_SIZE_TRAIN" in n and "left unknown" in n for n in loaded.notes)
    assert not canary.exists()
    # the twin: by default the same file is still refused as a whole
    assert isinstance(load_config(source), FileError)
