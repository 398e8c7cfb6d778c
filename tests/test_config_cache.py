"""`check DIR` keeps each config's result in the cache, and checks the config again when the
config or anything its check read changes: the project's dataclasses (declared_fields), a new
file in a folder it walked, a touched dependency, the pins."""

from __future__ import annotations

import os
import re
import textwrap
import time
from pathlib import Path

import pytest

LLAMA_FACTORY = """\
    model_name_or_path: Qwen/Qwen3-4B-Instruct-2507
    stage: sft
    do_train: true
    finetuning_type: lora
    lora_ranks: 8
    output_dir: saves/qwen3-4b/lora/sft
    per_device_train_batch_size: 1
    gradient_accumulation_steps: 8
    learning_rate: 1.0e-4
"""
HPARAMS = """\
    from dataclasses import dataclass, field

    @dataclass
    class FinetuningArguments:
        {field}: int = field(default=8)
"""


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


_CLOCK = [time.time() - 1000]


def age(root: Path) -> None:
    """Give every file and folder under root an old, distinct modification time (a result that
    read something written in the last 2 s is not stored; tests write and check at once)."""
    _CLOCK[0] += 10
    for folder, dirs, files in os.walk(root):
        for name in files + dirs:
            os.utime(os.path.join(folder, name), (_CLOCK[0], _CLOCK[0]))
    os.utime(root, (_CLOCK[0], _CLOCK[0]))


@pytest.fixture
def project(tmp_path):
    import preflight.cache

    preflight.cache._KEYS.clear()  # a per-process memo of key files: a fresh process starts without it
    write(tmp_path, "pyproject.toml", "[project]\nname = 'x'\n")
    write(tmp_path, "src/hparams.py", HPARAMS.format(field="lora_ranks"))
    write(tmp_path, "examples/lora_sft.yaml", LLAMA_FACTORY)
    write(tmp_path, "examples/train.py", "print('hi')\n")
    (tmp_path / ".preflight_cache").mkdir()
    age(tmp_path)
    return tmp_path


@pytest.fixture
def validations(monkeypatch):
    """How many times a config was validated (not taken from the cache)."""
    import preflight.validate as validate
    from preflight.validate_project import _fields_under, _pins_under

    count = [0]
    real = validate.validate_source

    def counted(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(validate, "validate_source", counted)
    _fields_under.cache_clear()
    _pins_under.cache_clear()
    yield count
    _fields_under.cache_clear()  # each CLI run below is one process; these memos are per process


def shown(result) -> tuple[int, str]:
    """Exit code and output, less the count of Python files taken from the cache."""
    return result.code, re.sub(r", \d+ cached", "", result.out)


def check(cli, root: Path):
    from preflight.validate_project import _fields_under, _pins_under

    _fields_under.cache_clear()  # what a new process would start with
    _pins_under.cache_clear()
    return cli("check", "examples", "--select", "PF601", cwd=root)


def test_an_unchanged_config_is_taken_from_the_cache(cli, project, validations):
    first = check(cli, project)
    assert first.code == 0 and "Configs: 1 checked (training-args)" in first.out
    assert validations[0] == 1
    again = check(cli, project)
    assert shown(again) == shown(first)
    assert validations[0] == 1  # not validated again
    no_cache = cli("check", "examples", "--select", "PF601", "--no-cache", cwd=project)
    assert shown(no_cache) == shown(first) and validations[0] == 2


def test_editing_the_projects_dataclass_checks_the_config_again(cli, project, validations):
    assert check(cli, project).code == 0
    write(project, "src/hparams.py", HPARAMS.format(field="lora_alpha"))  # lora_ranks is gone
    age(project)
    result = check(cli, project)
    assert validations[0] == 2
    assert result.code == 1
    assert "examples/lora_sft.yaml:5:1: PF601 unknown key 'lora_ranks'" in result.out
    write(project, "src/hparams.py", HPARAMS.format(field="lora_ranks"))  # and back
    age(project)
    back = check(cli, project)
    assert back.code == 0 and "PF601" not in back.out and validations[0] == 3


def test_a_new_dataclass_file_checks_the_config_again(cli, project, validations):
    write(project, "src/hparams.py", HPARAMS.format(field="lora_alpha"))
    age(project)
    assert check(cli, project).code == 1
    write(project, "src/extra/more.py", HPARAMS.format(field="lora_ranks"))  # a new file, new folder
    age(project)
    result = check(cli, project)
    assert validations[0] == 2
    assert result.code == 0 and "PF601" not in result.out


def test_touching_a_dependency_checks_the_config_again(cli, project, validations):
    first = check(cli, project)
    os.utime(project / "src" / "hparams.py", (_CLOCK[0] + 5, _CLOCK[0] + 5))  # same bytes
    again = check(cli, project)
    assert validations[0] == 2 and shown(again) == shown(first)
    assert shown(check(cli, project)) == shown(first) and validations[0] == 2  # cached again


def test_a_project_marker_appearing_above_the_config_checks_it_again(cli, project, validations):
    assert check(cli, project).code == 0
    # examples/ becomes its own project: its root no longer holds src/hparams.py
    write(project, "examples/setup.cfg", "[metadata]\nname = y\n")
    age(project)
    result = check(cli, project)
    assert validations[0] == 2
    assert result.code == 1 and "PF601 unknown key 'lora_ranks'" in result.out


def test_a_config_written_just_now_is_checked_again_next_time(cli, project, validations):
    write(project, "src/hparams.py", HPARAMS.format(field="lora_alpha"))
    age(project)
    write(project, "examples/lora_sft.yaml", LLAMA_FACTORY + "    seed: 1\n")
    first = check(cli, project)  # the config's bytes are new: written in this second
    assert first.code == 1 and validations[0] == 1
    second = check(cli, project)
    assert shown(second) == shown(first) and validations[0] == 2  # not stored: it might still change


def test_one_process_rechecks_after_the_projects_module_is_rewritten(cli, project, validations):
    """``preflight lsp``/``serve`` check again in the same process: the memoised project
    dataclasses follow a rewrite of their module (no cache_clear between the two runs)."""
    first = cli("check", "examples", "--select", "PF601", "--no-cache", cwd=project)
    assert first.code == 0
    write(project, "src/hparams.py", HPARAMS.format(field="lora_alpha"))  # lora_ranks is gone
    age(project)
    second = cli("check", "examples", "--select", "PF601", "--no-cache", cwd=project)
    assert second.code == 1
    assert "examples/lora_sft.yaml:5:1: PF601 unknown key 'lora_ranks'" in second.out
    write(project, "src/extra/more.py", HPARAMS.format(field="lora_ranks"))  # a new module restores it
    age(project)
    third = cli("check", "examples", "--select", "PF601", "--no-cache", cwd=project)
    assert third.code == 0 and "PF601" not in third.out


def test_an_unchanged_memo_is_reused_in_one_process(project, monkeypatch):
    import preflight.validate as validate
    from preflight.validate_project import _fields_under

    calls = [0]
    real = validate.dataclass_fields

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(validate, "dataclass_fields", counted)
    _fields_under.cache_clear()
    try:
        first = _fields_under(str(project))
        n = calls[0]
        assert "lora_ranks" in first and n >= 1
        assert _fields_under(str(project)) == first and calls[0] == n  # every stamp the same: reused
        write(project, "src/hparams.py", HPARAMS.format(field="lora_alpha"))
        assert "lora_alpha" in _fields_under(str(project))  # just written: not trusted, read again
    finally:
        _fields_under.cache_clear()


def test_what_an_import_during_the_check_reads_is_no_dependency(cli, project, validations, tmp_path_factory,
                                                                monkeypatch):
    """A module imported for the first time while a config is checked (a lazy import, a registry
    loaded at first use: which check comes first in a process is its history) reads its source,
    bytecode and the folders on ``sys.path``: preflight's and its libraries' code, never the
    project's. Other processes write into those folders (their ``__pycache__``, a suite beside
    this one in the same checkout); recorded as dependencies, they made the next run miss the
    cache at random (the probable cause of the two failures of the first test above in CI's 3.9
    half, which runs beside two other suites in the same checkout)."""
    import sys

    import preflight.validate as validate

    lib = tmp_path_factory.mktemp("lib")
    write(lib, "lazy_module_of_the_check.py", "VALUE = 1\n")
    age(lib)
    monkeypatch.syspath_prepend(str(lib))
    monkeypatch.delitem(sys.modules, "lazy_module_of_the_check", raising=False)
    counted = validate.validate_source

    def importing(*args, **kwargs):
        import lazy_module_of_the_check  # noqa: F401  first import: inside the first check only

        return counted(*args, **kwargs)

    monkeypatch.setattr(validate, "validate_source", importing)
    first = check(cli, project)
    assert validations[0] == 1
    write(lib, "__pycache__/other.cpython-313.pyc", "")  # another Python's bytecode, written beside it
    age(lib)
    assert shown(check(cli, project)) == shown(first) and validations[0] == 1  # taken from the cache
