"""Replay every input the fuzzing campaign (fuzz/) ever crashed on: none may crash again."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"


def _targets():
    spec = importlib.util.spec_from_file_location("fuzz_parsers", FUZZ / "fuzz_parsers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.TARGETS


TARGETS = _targets()
CASES = sorted((d.name, f) for d in (FUZZ / "regressions").iterdir() if d.is_dir()
               for f in sorted(d.iterdir()) if f.is_file())


def test_every_regression_names_a_target() -> None:
    assert CASES, "fuzz/regressions holds the crashes found so far"
    assert {name for name, _ in CASES} <= set(TARGETS)


@pytest.mark.parametrize(("target", "path"), CASES, ids=[f"{t}/{p.name}" for t, p in CASES])
def test_regression_input_no_longer_crashes(target: str, path: Path) -> None:
    TARGETS[target](path.read_bytes())  # raises (test fails) if the crash is back
