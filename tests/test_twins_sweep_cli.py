"""bench/bugs/twins_sweep.py from the command line: the sweep a rule change is checked with (findings on the
bug/fix/tricky-correct variants of the bug sets), without a wrapper script per change."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "bugs" / "twins_sweep.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_file_rule_sweep_names_the_bug_variant_it_reaches():
    out = run("--codes", "PF128", "--sets", "held-out-47")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("PF128 over 1 sets: variants read ")
    assert "bug-variant findings 1, fix/correct findings 0" in lines[0]
    assert lines[1].split() == ["held-out-47", "h47-pt-classifier-head-missing-from-the-optimizer", "bug", "PF128",
                                "train_rocstories.py", "17"]


def test_contains_gate_drops_variants_without_the_text():
    out = run("--codes", "PF128", "--sets", "held-out-47", "--contains", "no-such-text-in-any-case")
    assert out.returncode == 0, out.stderr
    assert "variants read 0, bug-variant findings 0, fix/correct findings 0" in out.stdout


def test_range_of_sets_and_unknown_set():
    from importlib import util

    spec = util.spec_from_file_location("twins_sweep_cli", SCRIPT)
    assert spec is not None and spec.loader is not None
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        mod = util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        assert mod.expand_sets("held-out-40..42") == ["held-out-40", "held-out-41", "held-out-42"]
        assert mod.expand_sets("held-out-47,held-out") == ["held-out-47", "held-out"]
        assert mod.expand_sets("") is None
    finally:
        sys.path.remove(str(SCRIPT.parent))
    bad = run("--codes", "PF128", "--sets", "held-out-999")
    assert bad.returncode == 1
    assert "unknown set(s) held-out-999" in bad.stderr


def test_no_code_is_a_usage_error():
    out = run("--sets", "held-out-47")
    assert out.returncode == 2
    assert "name at least one code" in out.stderr
