"""The eighth held-out set (calibration/public/heldout8.json): public measured peaks from two
repositories no earlier set uses (vision, encoder and from-scratch GPT-2 training; FSDP, ZeRO-2,
DDP, CPU offload, compile), every row sourced, its measured quantity read from the code that
printed it, and what the source leaves open recorded as unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout8.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", "heldout2.json", "heldout3.json", "heldout4.json",
                        "heldout5.json", "heldout6.json", "heldout7.json")]
UNIT = {"GB": 10**9, "GiB": 2**30}


def _repo(url):
    return "/".join(url.split("/")[3:5])


def test_at_least_15_peaks_from_repositories_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    assert sum(1 for r in ROWS if "peak_bytes" in r) >= 15
    used = {_repo(s["url"]) for doc in EARLIER for s in doc["sources"].values()}
    repos = {_repo(s["url"]) for s in DOC["sources"].values()}
    assert repos == {"rasbt/pytorch-memory-optim", "rasbt/LLMs-from-scratch"}
    assert not repos & used, repos & used
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)
        assert sum(1 for r in ROWS if r["source"] == key) >= 8


def test_families_and_parallelism_are_spanned():
    setups = [r["setup"] for r in ROWS]
    types = {(s.get("hf_config") or {}).get("model_type") for s in setups}
    assert {"vit", "gpt2"} <= types
    assert any(s.get("model") == "DistilBERT-base-uncased" for s in setups)
    assert {s["precision"] for s in setups} == {"fp32", "amp-fp16", "bf16"}
    assert any(s.get("fsdp") == "full" and s.get("offload_params") == "cpu" for s in setups)
    assert any(s.get("zero_stage") == 2 for s in setups)
    assert any(s.get("world_size") == 4 and not s.get("fsdp") and not s.get("zero_stage")
               for s in setups)   # DDP
    assert any(s.get("grad_accum", 1) > 1 for s in setups)
    assert {True, False} <= {bool(s.get("compiled")) for s in setups}
    assert not any(s.get("lora_r") or s.get("quant") for s in setups)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"]
    assert len(source["url"].split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-8"
    assert row["measured"] == "memory_reserved"
    assert row["outcome"] == "ran"
    assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    setup = row["setup"]
    assert setup["mode"] == "train" and (setup.get("seq_len") or setup.get("image_size"))
