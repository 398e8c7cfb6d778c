"""--fix never writes over a file that changed since it was read, and concurrent runs
on one tree leave every file parseable and fixed exactly once."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from conftest import LEAKY, write

from preflight import fix as fixer
from preflight.sources import read_source


def _fixable(tmp_path: Path, name: str = "train.py") -> Path:
    return write(tmp_path / name, LEAKY)


def test_write_refuses_a_file_changed_after_it_was_read(tmp_path: Path) -> None:
    path = _fixable(tmp_path)
    source = read_source(path, "train.py", "python")
    path.write_text(LEAKY + "# edited in the editor meanwhile\n")
    try:
        fixer.write_atomic(path, source, "fixed = True\n")
    except fixer.FileChangedError as exc:
        assert "train.py changed since preflight read it" in str(exc)
    else:
        raise AssertionError("the write went through")
    assert path.read_text().endswith("# edited in the editor meanwhile\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]  # no temporary left


def test_write_goes_through_when_nothing_changed(tmp_path: Path) -> None:
    path = _fixable(tmp_path)
    os.chmod(path, 0o640)
    source = read_source(path, "train.py", "python")
    fixer.write_atomic(path, source, "fixed = True\n")
    assert path.read_text() == "fixed = True\n"
    assert (path.stat().st_mode & 0o777) == 0o640


def test_concurrent_fix_runs_fix_each_file_once(tmp_path: Path) -> None:
    files = [_fixable(tmp_path, f"train_{i}.py") for i in range(12)]
    env = {**os.environ, "NO_COLOR": "1"}
    cmd = [sys.executable, "-m", "preflight", "check", "--fix", "--no-cache", "-j", "1", "-q", "."]
    procs = [subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [p.communicate(timeout=300) for p in procs]
    codes = [p.returncode for p in procs]
    assert all(code in (0, 1, 3) for code in codes), (codes, outputs)
    for path in files:
        text = path.read_text()
        ast.parse(text)
        assert text.count("losses.append(loss.detach())") == 1, text
        assert "losses.append(loss)\n" not in text
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".preflight-tmp")]
    assert leftovers == []
    # the losers of each race say so, and a later run finds nothing left to fix
    again = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert "PF101" not in again.stdout
