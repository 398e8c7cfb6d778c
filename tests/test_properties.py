"""Property tests: every parser and the rules survive arbitrary and mutated input.

The longer coverage-guided campaign with atheris lives in fuzz/ (see fuzz/README.md);
these run in the suite on every commit with a modest number of examples each.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from preflight.adapters.launchers import parse_launch

from preflight.engine import Selection, analyse_parsed
from preflight.fix import apply_fixes
from preflight.loaders import LoadedConfig, load_config_text
from preflight.registry import all_rules
from preflight.sources import FileError, ParsedPython, SourceText, parse_python, read_source

# 60 examples per test in the suite; HYPOTHESIS_PROFILE=stress (tests/conftest.py) raises it
_EXAMPLES = 60 if settings.default.max_examples <= 100 else settings.default.max_examples
SETTINGS = settings(max_examples=_EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

RULES = all_rules()
ALL_CODES = tuple(RULES)
EXAMPLES = [textwrap.dedent(e) for cls in RULES.values()
            for e in (*cls.bad_examples, *cls.good_examples)]


def _source(text: str, kind: str = "python", name: str = "t.py") -> SourceText:
    return SourceText(path=Path(name), display=name, kind=kind, raw=text.encode("utf-8", "surrogatepass"),
                      text=text)


# -- file reading: any bytes give a source or one clear error ------------------------------

@SETTINGS
@given(raw=st.binary(max_size=2000), kind=st.sampled_from(["python", "notebook", "json", "yaml", "toml"]))
def test_any_bytes_read_as_a_source_or_a_clear_error(tmp_path_factory, raw: bytes, kind: str) -> None:
    path = tmp_path_factory.mktemp("bytes") / "input"
    path.write_bytes(raw)
    result = read_source(path, "input", kind)
    if isinstance(result, FileError):
        assert result.message and "\n" not in result.message.strip()
        assert result.path == "input"
    else:
        assert result.raw == raw


# -- Python: any text parses or gives a FileError with a line --------------------------------

@SETTINGS
@given(text=st.text(max_size=400))
def test_any_text_parses_or_gives_a_located_error(text: str) -> None:
    result = parse_python(_source(text))
    if isinstance(result, FileError):
        assert result.message
        if result.line is not None:
            # Python ends a line at \r\n, \r or \n: '\r\r:' fails on line 3 (found by hypothesis)
            breaks = len(re.findall(r"\r\n|\r|\n", text))
            assert 1 <= result.line <= max(1, breaks + 2)
    else:
        assert isinstance(result, ParsedPython)
        assert analyse_parsed(result, Selection(codes=ALL_CODES)) is not None


def _mutate(text: str, ops: list[tuple[int, int, int]]) -> str:
    lines = text.splitlines()
    for op, i, j in ops:
        if not lines:
            break
        i %= len(lines)
        j %= len(lines)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(j, lines[i])
        elif op == 2:
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            lines[i] = "    " + lines[i]
        elif op == 4:
            lines[i] = lines[i].lstrip()
        else:
            lines[i] = lines[i][: j % (len(lines[i]) + 1)]
    return "\n".join(lines) + "\n"


@SETTINGS
@given(index=st.integers(0, len(EXAMPLES) - 1),
       ops=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 200), st.integers(0, 200)),
                    min_size=1, max_size=4))
def test_every_rule_survives_mutated_training_code(index: int, ops) -> None:
    """Delete, duplicate, swap, indent and truncate lines of the rule examples: whatever
    still parses is analysed by every rule without an exception, and every finding
    points inside the file."""
    text = _mutate(EXAMPLES[index], ops)
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        assume(False)
    parsed = parse_python(_source(text))
    assert isinstance(parsed, ParsedPython)
    n_lines = text.count("\n") + 1
    for finding in analyse_parsed(parsed, Selection(codes=ALL_CODES)):
        assert 1 <= finding.span.line <= n_lines, finding
        assert finding.code in RULES


# -- fixes: parse after, idempotent, change only what they say ------------------------------

FIXABLE = [textwrap.dedent(e) for cls in RULES.values() if cls.fixable for e in cls.bad_examples]


@SETTINGS
@given(index=st.integers(0, len(FIXABLE) - 1),
       ops=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 200), st.integers(0, 200)),
                    max_size=2))
def test_fixes_keep_code_parsing_and_are_idempotent(index: int, ops) -> None:
    text = _mutate(FIXABLE[index], ops) if ops else FIXABLE[index]
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        assume(False)
    parsed = parse_python(_source(text))
    assert isinstance(parsed, ParsedPython)
    fixes = [f.fix for f in analyse_parsed(parsed, Selection(codes=ALL_CODES)) if f.fix is not None]
    assume(fixes)
    outcome = apply_fixes(parsed.source, fixes)
    ast.parse(outcome.text)  # still Python
    if not outcome.changed:
        return
    # only the lines of applied fixes differ (a fix may add an import at the top)
    before, after = text.splitlines(), outcome.text.splitlines()
    touched = {line for f in outcome.applied for line in range(f.target.line, f.target.end_line + 1)}
    if len(before) == len(after):
        changed = {i + 1 for i, (a, b) in enumerate(zip(before, after)) if a != b}
        assert changed <= touched, (changed, touched)
    # a second pass over the fixed text has nothing left of what was fixed
    again = parse_python(_source(outcome.text))
    assert isinstance(again, ParsedPython)
    second = [f.fix for f in analyse_parsed(again, Selection(codes=ALL_CODES)) if f.fix is not None]
    assert apply_fixes(again.source, second).text == outcome.text or second


# -- configs: any text loads or fails cleanly; real data keeps every key's line -------------

@SETTINGS
@given(text=st.text(max_size=400), kind=st.sampled_from(["json", "yaml", "toml"]))
def test_any_config_text_loads_or_gives_a_clear_error(text: str, kind: str) -> None:
    result = load_config_text(text, kind, "cfg")
    assert isinstance(result, (LoadedConfig, FileError))
    if isinstance(result, FileError):
        assert result.message and result.path == "cfg"


_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                     st.floats(allow_nan=False, allow_infinity=False, width=32),
                     st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12))
_keys = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=8)
_json = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4)), max_leaves=20)


@SETTINGS
@given(data=st.dictionaries(_keys, _json, min_size=1, max_size=5), indent=st.sampled_from([None, 1, 2, 4]))
def test_json_configs_round_trip_with_a_line_for_every_key(data, indent) -> None:
    text = json.dumps(data, indent=indent)
    loaded = load_config_text(text, "json", "cfg.json")
    assert isinstance(loaded, LoadedConfig)
    assert loaded.data == data

    def walk(value, path):
        if isinstance(value, dict):
            for k, v in value.items():
                line = loaded.line_of((*path, k))
                assert line is not None and 1 <= line <= text.count("\n") + 1
                walk(v, (*path, k))

    walk(data, ())


@SETTINGS
@given(data=st.dictionaries(_keys, _json, min_size=1, max_size=5))
def test_yaml_configs_round_trip(data) -> None:
    yaml = pytest.importorskip("yaml")
    text = yaml.safe_dump(data, sort_keys=False)
    loaded = load_config_text(text, "yaml", "cfg.yaml")
    assert isinstance(loaded, LoadedConfig)
    assert loaded.data == data
    for key in data:
        assert loaded.line_of((key,)) is not None


# -- launch lines and notebooks -----------------------------------------------------------

_tokens = st.lists(st.one_of(
    st.sampled_from(["torchrun", "accelerate", "launch", "deepspeed", "srun", "python", "-m",
                     "--nproc_per_node", "--nproc-per-node=8", "--nnodes", "2", "--num_gpus",
                     "--num_processes", "--config_file", "ds.json", "train.py", "--", "-n", "=",
                     "A=1", "--multi_gpu", "torch.distributed.run", "--hostfile", "x:y"]),
    st.text(max_size=10)), max_size=12)


@SETTINGS
@given(tokens=_tokens)
def test_any_launch_line_parses(tokens) -> None:
    info = parse_launch(tokens)
    assert info.line is not None


_cells = st.lists(st.fixed_dictionaries({
    "cell_type": st.sampled_from(["code", "markdown", "raw", 3, None]),
    "source": st.one_of(st.text(max_size=80), st.lists(st.text(max_size=30), max_size=4), st.integers()),
}), max_size=5)


@SETTINGS
@given(cells=_cells, extra=st.dictionaries(_keys, _scalars, max_size=2))
def test_any_notebook_structure_reads_or_fails_cleanly(tmp_path_factory, cells, extra) -> None:
    from preflight.sources import notebook_to_python

    doc = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5, **extra}
    path = tmp_path_factory.mktemp("nb") / "n.ipynb"
    path.write_text(json.dumps(doc))
    source = read_source(path, "n.ipynb", "notebook")
    assert not isinstance(source, FileError)
    result = notebook_to_python(source)
    if not isinstance(result, FileError):
        text, cell_map = result
        assert len(cell_map) >= len(text.rstrip("\n").splitlines())


# -- scheduler jobs: any manifest or batch script is read or refused cleanly -----------------

_anything = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(
        ["spec", "template", "containers", "resources", "limits", "nvidia.com/gpu", "replicas",
         "pytorchReplicaSpecs", "Master", "Worker", "command", "args", "nodeSelector",
         "affinity", "metadata", "name", "parallelism"]), inner, max_size=4)), max_leaves=25)


@SETTINGS
@given(kind=st.sampled_from(["Pod", "Job", "PyTorchJob"]), body=_anything)
def test_any_kubernetes_manifest_shape_is_read_or_refused(kind, body) -> None:
    from preflight.gate.k8s import parse_manifest

    doc = {"apiVersion": "v1", "kind": kind, "spec": body}
    job = parse_manifest(json.dumps(doc), "job.yaml")  # JSON is YAML
    assert job.path == "job.yaml"


@SETTINGS
@given(lines=st.lists(st.one_of(
    st.sampled_from(["#!/bin/bash", "#SBATCH --gres=gpu:a100:2", "#SBATCH --nodes=2",
                     "#SBATCH --gpus-per-node=4", "#SBATCH --ntasks-per-node=8", "#SBATCH -N",
                     "srun torchrun --nproc_per_node 4 train.py", "python train.py \\",
                     "#SBATCH --gres=gpu:", "deepspeed --num_gpus 8 t.py --deepspeed ds.json"]),
    st.text(max_size=30)), max_size=8))
def test_any_batch_script_is_read(lines) -> None:
    from preflight.gate.slurm import parse_sbatch

    job = parse_sbatch("\n".join(lines) + "\n", "job.sbatch")
    assert job.path == "job.sbatch"
