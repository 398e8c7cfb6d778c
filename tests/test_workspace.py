"""Discovery and reading: every kind of bad input is one clear per-file error."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import write

from preflight.diagnostics import FileError
from preflight.sources import SourceText, parse_python, read_source
from preflight.workspace import discover


def displays(found):
    return [f.display for f in found.files]


def test_discovers_every_kind_sorted(tmp_path):
    for name in ["b.py", "a.ipynb", "c.json", "d.yaml", "e.yml", "f.toml", "g.sh", "h.sbatch", "x.txt", "y.pyc"]:
        write(tmp_path / "proj" / name, "{}" if name.endswith((".json", ".ipynb")) else "")
    found = discover([tmp_path / "proj"], tmp_path)
    assert displays(found) == ["proj/a.ipynb", "proj/b.py", "proj/c.json", "proj/d.yaml", "proj/e.yml",
                               "proj/f.toml", "proj/g.sh", "proj/h.sbatch"]
    assert [f.kind for f in found.files] == ["notebook", "python", "json", "yaml", "yaml", "toml",
                                             "shell", "shell"]


def test_default_excludes_but_not_bare_dist_or_env(tmp_path):
    for rel in [".git/hooks/x.py", "build/lib/x.py", "node_modules/m/x.py", "lib/site-packages/x.py",
                "myvenv/lib/x.py", ".venv/x.py", "dist/train.py", "env/rl_train.py", "src/train.py"]:
        write(tmp_path / rel, "x = 1\n")
    write(tmp_path / "myvenv" / "pyvenv.cfg", "home = /usr\n")
    found = discover([tmp_path], tmp_path, kinds=frozenset({"python"}))
    assert displays(found) == ["dist/train.py", "env/rl_train.py", "src/train.py"]


def test_configured_excludes(tmp_path):
    for rel in ["src/a.py", "src/gen/b.py", "tests/fixtures/c.py", "d_test.py"]:
        write(tmp_path / rel, "")
    found = discover([tmp_path], tmp_path, exclude=["src/gen", "tests/fixtures/*", "*_test.py"],
                     kinds=frozenset({"python"}))
    assert displays(found) == ["src/a.py"]


def test_explicit_file_is_taken_even_if_excluded(tmp_path):
    write(tmp_path / "build" / "x.py", "")
    found = discover([tmp_path / "build" / "x.py"], tmp_path, exclude=["build"])
    assert displays(found) == ["build/x.py"]


def test_missing_path_is_an_error(tmp_path):
    found = discover([tmp_path / "nope.py"], tmp_path)
    assert found.files == []
    assert [(e.path, e.message) for e in found.errors] == [("nope.py", "no such file or directory")]


def test_symlink_loop_directory(tmp_path):
    write(tmp_path / "a" / "x.py", "")
    os.symlink(tmp_path / "a", tmp_path / "a" / "loop")
    found = discover([tmp_path], tmp_path, kinds=frozenset({"python"}))
    assert displays(found) == ["a/x.py"]
    assert any("symbolic link loop" in e.message and e.path == "a/loop" for e in found.errors)


def test_symlink_loop_file(tmp_path):
    os.symlink(tmp_path / "l2.py", tmp_path / "l1.py")
    os.symlink(tmp_path / "l1.py", tmp_path / "l2.py")
    found = discover([tmp_path], tmp_path)
    assert found.files == []
    assert sorted((e.path, e.message) for e in found.errors) == [
        ("l1.py", "symbolic link loop; skipped"), ("l2.py", "symbolic link loop; skipped")]
    found = discover([tmp_path / "l1.py"], tmp_path)
    assert [e.message for e in found.errors] == ["symbolic link loop; skipped"]


def test_unreadable_directory(tmp_path, monkeypatch):
    write(tmp_path / "ok" / "a.py", "")
    (tmp_path / "locked").mkdir()
    real_scandir = os.scandir

    def scandir(path):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    found = discover([tmp_path], tmp_path, kinds=frozenset({"python"}))
    assert displays(found) == ["ok/a.py"]
    assert [(e.path, e.message) for e in found.errors] == [
        ("locked", "cannot list directory: permission denied; skipped")]


def read(tmp_path: Path, name: str, data: bytes, kind: str = "python"):
    path = write(tmp_path / name, data)
    return read_source(path, name, kind)


def test_unreadable_file(tmp_path, monkeypatch):
    path = write(tmp_path / "a.py", "x = 1\n")

    real_open = os.open

    def deny(name, *args, **kwargs):
        if str(name) == str(path):
            raise PermissionError(13, "Permission denied")
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)
    err = read_source(path, "a.py", "python")
    assert err == FileError("a.py", "permission denied; skipped")


def test_binary_file(tmp_path):
    err = read(tmp_path, "model.py", b"\x89PNG\r\n\x1a\n\0\0\0")
    assert isinstance(err, FileError) and err.message == "binary file (contains NUL bytes); skipped"


def test_not_utf8_names_line(tmp_path):
    err = read(tmp_path, "latin.py", b"x = 1\ny = 'caf\xe9'\n")
    assert isinstance(err, FileError)
    assert err.line == 2
    assert err.message.startswith("not valid utf-8 (byte 0xe9 at line 2)")


def test_coding_cookie_is_honoured(tmp_path):
    src = read(tmp_path, "latin.py", b"# -*- coding: latin-1 -*-\ny = 'caf\xe9'\n")
    assert isinstance(src, SourceText) and "café" in src.text


def test_bom_is_stripped_and_remembered(tmp_path):
    src = read(tmp_path, "bom.py", b"\xef\xbb\xbfx = 1\n")
    assert isinstance(src, SourceText) and src.bom and src.text == "x = 1\n"


def test_too_large(tmp_path, monkeypatch):
    import preflight.sources as sources

    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 10)
    err = read(tmp_path, "big.py", b"x = 1\n" * 10)
    assert isinstance(err, FileError) and "over the" in err.message


def parse(tmp_path, name, text, kind="python"):
    src = read(tmp_path, name, text.encode(), kind)
    assert isinstance(src, SourceText)
    return parse_python(src)


def test_syntax_error_has_line_and_column(tmp_path):
    err = parse(tmp_path, "bad.py", "x = 1\ndef f(:\n    pass\n")
    assert isinstance(err, FileError)
    assert (err.path, err.line) == ("bad.py", 2)
    assert err.message.startswith("syntax error:")
    assert err.render().startswith("bad.py:2:")


def test_python2_is_named(tmp_path):
    err = parse(tmp_path, "old.py", "import os\nprint 'hello'\n")
    assert isinstance(err, FileError) and err.line == 2
    assert err.message.startswith("Python 2 syntax is not supported")
    err = parse(tmp_path, "old2.py", "try:\n    pass\nexcept Exception, e:\n    pass\n")
    assert isinstance(err, FileError) and "Python 2" in err.message


def test_deeply_nested_source_is_an_error_not_a_crash(tmp_path):
    err = parse(tmp_path, "deep.py", "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n")
    assert isinstance(err, FileError)


def notebook(*cells) -> str:
    return json.dumps({"cells": [{"cell_type": t, "source": s, "metadata": {}} for t, s in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_notebook_positions_map_to_cells(tmp_path):
    nb = notebook(("markdown", "# title"), ("code", ["import torch\n", "%matplotlib inline\n", "x = 1\n"]),
                  ("code", "!pip install foo\nfor i in range(3):\n    %time y = i\n    z = i"))
    parsed = parse(tmp_path, "nb.ipynb", nb, "notebook")
    assert not isinstance(parsed, FileError)
    # virtual line 5 is "for i in range(3):", cell 3 line 2
    assert parsed.locate(5) == (3, 2)
    assert parsed.locate(1) == (2, 1)


def test_notebook_syntax_error_names_cell(tmp_path):
    nb = notebook(("code", "x = 1"), ("code", "y = (\n"))
    parsed = parse(tmp_path, "nb.ipynb", nb, "notebook")
    # the other cells are still analysed; the broken one is reported on its own
    assert not isinstance(parsed, FileError)
    assert [e.path for e in parsed.cell_errors] == ["nb.ipynb:cell 2"]


@pytest.mark.parametrize("text,message", [("{not json", "invalid JSON"), ("[]", "no 'cells' list")])
def test_broken_notebook(tmp_path, text, message):
    err = parse(tmp_path, "nb.ipynb", text, "notebook")
    assert isinstance(err, FileError) and message in err.message
