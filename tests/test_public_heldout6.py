"""The sixth held-out set (calibration/public/heldout6.json): public measured peaks from three
independent projects no earlier set uses, every row sourced, its measured quantity read from the
source's own code, and what the source leaves open recorded as unknown."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout6.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", "heldout2.json", "heldout3.json", "heldout4.json",
                        "heldout5.json")]
UNIT = {"GiB": 2**30, "MiB": 2**20}


def _repo(url):
    return "/".join(url.split("/")[3:5])


def test_at_least_30_peaks_from_three_projects_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    assert sum(1 for r in ROWS if "peak_bytes" in r) >= 30
    used = {_repo(s["url"]) for doc in EARLIER for s in doc["sources"].values()}
    repos = {_repo(s["url"]) for s in DOC["sources"].values()}
    assert len(repos) == len(DOC["sources"]) >= 3
    assert not repos & used, repos & used
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)
        assert sum(1 for r in ROWS if r["source"] == key) >= 4


def test_families_methods_and_checkpointing_are_spanned():
    setups = [r["setup"] for r in ROWS]
    types = {(s.get("hf_config") or {}).get("model_type") for s in setups}
    assert {"qwen2", "llama", "mistral", "gpt2"} <= types   # Qwen-1 as qwen2, Yi as llama
    assert any(s.get("lora_r") and not s.get("quant") for s in setups)
    assert any(s.get("quant") == "4bit" for s in setups)
    assert any(not s.get("lora_r") for s in setups)
    assert {True, False} <= {s["grad_ckpt"] for s in setups}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"]
    assert row["split"] == "held-out-6"
    assert row["measured"] in ("memory_reserved", "max_memory_allocated")
    assert row["outcome"] == "ran"
    assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["mode"] == "train" and row["setup"]["seq_len"]


def test_every_row_builds_an_estimate_input():
    sys.path.insert(0, str(PUBLIC.parent.parent / "bench"))
    import public_accuracy as pa

    from preflight import hardware  # type: ignore[attr-defined]

    for row in ROWS:
        assert hardware.find(row["gpu"]) is not None, row["gpu"]
        _inp, unknown = pa.estimate_input(row["setup"])
        assert set(unknown) <= {"loss_fn"}, (row["id"], unknown)


def test_the_split_is_scored_by_the_bench():
    sys.path.insert(0, str(PUBLIC.parent.parent / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-6"] == PUBLIC / "heldout6.json"
