"""preflight.local_trees: the project's modules parsed once per process, never stale."""

from __future__ import annotations

import ast
import os
import time

import pytest

from preflight import local_trees
from preflight.config_cache import recording


@pytest.fixture(autouse=True)
def _fresh():
    local_trees.clear()
    yield
    local_trees.clear()


def _write(path, text: str, age: float = 10.0) -> None:
    path.write_text(text)
    past = time.time() - age
    os.utime(path, (past, past))


def test_an_unchanged_module_is_parsed_once(tmp_path):
    mod = tmp_path / "helpers.py"
    _write(mod, "def build():\n    return 1\n")
    first = local_trees.parse_file(mod)
    assert local_trees.parse_file(mod) is first
    assert local_trees.nodes_of(first) is local_trees.nodes_of(first)
    assert local_trees.nodes_of(first) == list(ast.walk(first))


def test_a_rewritten_module_is_parsed_again(tmp_path):
    mod = tmp_path / "helpers.py"
    _write(mod, "x = 1\n", age=20)
    old = local_trees.parse_file(mod)
    _write(mod, "x = 22\n", age=10)
    new = local_trees.parse_file(mod)
    assert new is not old
    assert new.body[0].value.value == 22  # type: ignore[attr-defined]


def test_a_module_written_just_now_is_not_kept(tmp_path):
    """Two writes in the same timestamp tick with the same size would look unchanged."""
    mod = tmp_path / "helpers.py"
    mod.write_text("x = 1\n")
    assert local_trees.parse_file(mod) is not local_trees.parse_file(mod)


def test_a_tree_from_the_cache_is_recorded_as_read(tmp_path):
    """The config cache keys a result on every file read while it was computed; a parse that
    comes from memory must count as a read of the file."""
    mod = tmp_path / "helpers.py"
    _write(mod, "x = 1\n")
    local_trees.parse_file(mod)
    with recording() as rec:
        local_trees.parse_file(mod)
    assert str(mod) in rec.opened


def test_errors_are_raised_as_the_parse_raises(tmp_path):
    bad = tmp_path / "bad.py"
    _write(bad, "def f(:\n")
    with pytest.raises(SyntaxError):
        local_trees.parse_file(bad)
    with pytest.raises(OSError):
        local_trees.parse_file(tmp_path / "missing.py")
    big = tmp_path / "big.py"
    _write(big, "x = 1\n" * 100)
    local_trees.parse_file(big)
    with pytest.raises(OSError):  # over the caller's limit, cached or not
        local_trees.parse_file(big, limit=10)
