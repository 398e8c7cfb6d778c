"""The tenth held-out set (calibration/public/heldout10.json): public measured peaks from three
publishers no earlier set uses (at most four rows each; vision, full fine-tunes, ZeRO-3 on one and
on eight GPUs, 8-bit and paged optimizers; an out-of-memory verdict row), every row sourced, its
measured quantity read from the code that printed it, and what the source leaves open recorded as
unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout10.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", "heldout2.json", "heldout3.json", "heldout4.json",
                        "heldout5.json", "heldout6.json", "heldout7.json", "heldout8.json",
                        "heldout9.json")]
UNIT = {"GB": 10**9, "GiB": 2**30, "MiB": 2**20}


def _page(url):
    return url.split("#")[0]


def _repo(url):
    return "/".join(url.split("/")[3:5])


def test_twelve_rows_from_three_sources_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS) >= 12
    assert sum(1 for r in ROWS if "peak_bytes" in r) >= 11
    used = {_page(s["url"]) for doc in EARLIER for s in doc["sources"].values()}
    assert not {_page(s["url"]) for s in DOC["sources"].values()} & used
    # no earlier set's repository either (independent publishers)
    used_repos = {_repo(s["url"]) for doc in EARLIER for s in doc["sources"].values()
                  if s["url"].startswith("https://github.com/")}
    assert not {_repo(s["url"]) for s in DOC["sources"].values()} & used_repos
    assert len(DOC["sources"]) == 3
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)
        assert 1 <= sum(1 for r in ROWS if r["source"] == key) <= 4, key
    # no row is a LoRA/QLoRA LLM fine-tune: far more than a third are not
    assert not any(r["setup"].get("lora_r") for r in ROWS)


def test_families_parallelism_and_optimizers_are_spanned():
    setups = [r["setup"] for r in ROWS]
    types = {(s.get("hf_config") or {}).get("model_type") for s in setups}
    assert {"vit", "qwen2"} <= types
    assert {"Llama-3-8B", "Swin-tiny-patch4-window7-224", "Qwen3-0.6B"} <= {s.get("model") for s in setups}
    assert {s["precision"] for s in setups} == {"fp32", "amp-fp16"}
    assert any(s.get("zero_stage") == 3 and s.get("world_size") == 8 for s in setups)
    assert any(s.get("zero_stage") == 3 and s.get("world_size") == 1 for s in setups)
    assert {"adamw", "adamw-8bit", "paged-adamw", "paged-adamw-8bit"} <= {s["optimizer"] for s in setups}
    assert any(s.get("grad_ckpt") for s in setups)
    assert any(s.get("image_size") for s in setups)
    assert {"ran", "oom"} == {r["outcome"] for r in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"]
    if "/blob/" in source["url"]:
        assert len(source["url"].split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-10"
    assert row["measured"] in ("max_memory_allocated", "peak_memory_active")
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    else:
        assert row["outcome"] == "oom" and "peak_bytes" not in row
    setup = row["setup"]
    assert setup["mode"] == "train" and (setup.get("seq_len") or setup.get("image_size"))
