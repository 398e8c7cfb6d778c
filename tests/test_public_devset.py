"""The public dev set (calibration/public/devset.json): every row is sourced, measured in a
named way, and the split follows its committed rule (by source, decided before estimating)."""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

DEVSET = Path(__file__).resolve().parent.parent / "calibration" / "public" / "devset.json"
DOC = json.loads(DEVSET.read_text(encoding="utf-8"))
ROWS = DOC["rows"]


def test_at_least_sixty_measured_peaks_from_several_sources():
    measured = [r for r in ROWS if r.get("peak_bytes")]
    assert len(measured) >= 60
    assert len({r["source"] for r in ROWS}) >= 8


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://")
    assert row["measured"] in ("max_memory_allocated", "peak_memory_active", "memory_reserved", "nvidia-smi")
    assert row["outcome"] in ("ran", "oom")
    assert (row["outcome"] == "oom") == ("peak_bytes" not in row)
    setup = row["setup"]
    assert ("model" in setup) != ("hf_config" in setup)
    assert setup["mode"] in ("train", "infer", "generate") and setup["seq_len"] > 0
    assert row["split"] in ("fit", "held-out")


def test_split_is_by_source_and_follows_the_rule():
    halves = {}
    for r in ROWS:
        halves.setdefault(r["source"], set()).add(r["split"])
    assert all(len(v) == 1 for v in halves.values()), "a source straddles the halves"
    counts = Counter(r["source"] for r in ROWS)
    order = sorted(counts, key=lambda k: (-counts[k], hashlib.sha256(k.encode()).hexdigest()))
    size = {"held-out": 0, "fit": 0}
    for k in order:
        side = "held-out" if size["held-out"] <= size["fit"] else "fit"
        assert halves[k] == {side}, k
        size[side] += counts[k]
    assert min(size.values()) >= 40


def test_every_row_builds_an_estimate_input():
    import sys

    sys.path.insert(0, str(DEVSET.parent.parent.parent / "bench"))
    import public_accuracy as pa

    for row in ROWS:
        _inp, unknown = pa.estimate_input(row["setup"])
        assert unknown == [], (row["id"], unknown)


def test_devset_json_is_what_build_devset_py_writes_from_its_source_modules(tmp_path):
    # build_devset.py and devset_sources/ copied elsewhere and run from another folder: the file
    # written there is the committed devset.json, byte for byte, and every source module is imported
    public = DEVSET.parent
    shutil.copy(public / "build_devset.py", tmp_path / "build_devset.py")
    shutil.copytree(public / "devset_sources", tmp_path / "devset_sources",
                    ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run([sys.executable, str(tmp_path / "build_devset.py")], cwd=tmp_path.parent,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "devset.json").read_bytes() == DEVSET.read_bytes()
    tree = ast.parse((public / "build_devset.py").read_text(encoding="utf-8"))
    modules = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                   and any(getattr(t, "id", None) == "MODULES" for t in node.targets))
    on_disk = {p.stem for p in (public / "devset_sources").glob("*.py")} - {"__init__", "core"}
    assert sorted(modules) == sorted(on_disk)  # a module missing from MODULES would drop its rows
