"""bench/public_groups.py: the grouping of the public rows' signed errors (est26)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import public_groups as pg


def _row(**kw):
    base = {"measured": "nvidia-smi", "gpu": "A100-SXM-80GB", "source": "peft-docs-fsdp",
            "setup": {"world_size": 1}}
    base.update(kw)
    return base


def test_generations_world_sizes_and_sharding():
    assert [pg.generation(g) for g in ("V100-SXM2-16GB", "RTX-2060-8GB", "A10G", "L40S-48GB",
                                       "H100-SXM-80GB", "B200-180GB", "MI300X-192GB")] == [
        "Volta", "Turing", "Ampere", "Ada", "Hopper", "Blackwell", "other"]
    assert [pg.world({"world_size": n}) for n in (1, 2, 4, 8)] == ["1", "2-4", "2-4", "8+"]
    assert pg.sharding({"world_size": 4, "zero_stage": 3}) == "ZeRO-3"
    assert pg.sharding({"world_size": 2, "fsdp": True}) == "FSDP"
    assert pg.sharding({"world_size": 2}) == "DDP"
    assert pg.torch_minor({"torch_version": "2.1.0"}) == "2.1"
    assert pg.torch_minor({}) == "unknown"
    assert pg.library("llama-factory-wiki-performance-comparison") == "LLaMA-Factory"


def test_group_summarises_signed_errors():
    errors = [(_row(), -0.10), (_row(), -0.20), (_row(measured="memory_reserved"), 0.04)]
    lines = {line["group"]: line for line in pg.group(errors, "kind")}
    smi = lines["nvidia-smi"]
    assert smi["n"] == 2 and abs(smi["mean"] + 0.15) < 1e-12 and smi["under"] == 1.0
    assert abs(smi["mae"] - 0.15) < 1e-12 and abs(smi["median"] + 0.15) < 1e-12
    assert lines["memory_reserved"]["under"] == 0.0


def test_unknown_grouping_is_a_usage_error(capsys):
    import pytest

    with pytest.raises(SystemExit) as exc:
        pg.main(["--by", "colour"])
    assert exc.value.code == 2
    assert "unknown grouping: colour" in capsys.readouterr().err
