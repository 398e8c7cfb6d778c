"""The ninth held-out set (calibration/public/heldout9.json): public measured peaks from six
publishers no earlier set uses (at most four rows each; vision, encoder, from-scratch ZeRO-3 and LLM
fine-tunes; LoRA, QLoRA, ZeRO-3, DDP, the optimizer step in backward; out-of-memory verdict rows),
every row sourced, its measured quantity read from the code that printed it, and what the source
leaves open recorded as unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout9.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", "heldout2.json", "heldout3.json", "heldout4.json",
                        "heldout5.json", "heldout6.json", "heldout7.json", "heldout8.json")]
UNIT = {"GB": 10**9, "GiB": 2**30, "MiB": 2**20}
LLM_FINETUNE_SOURCES = {"litgpt-config-hub-finetune", "hf-blog-pytorch-fsdp"}


def _page(url):
    return url.split("#")[0]


def test_fifteen_rows_from_six_sources_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS) >= 15
    assert sum(1 for r in ROWS if "peak_bytes" in r) >= 11
    used = {_page(s["url"]) for doc in EARLIER for s in doc["sources"].values()}
    assert not {_page(s["url"]) for s in DOC["sources"].values()} & used
    assert len(DOC["sources"]) == 6
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)
        assert 1 <= sum(1 for r in ROWS if r["source"] == key) <= 4, key
    # at least a third of the rows are not LLM fine-tunes
    assert sum(1 for r in ROWS if r["source"] not in LLM_FINETUNE_SOURCES) * 3 >= len(ROWS)


def test_families_and_parallelism_are_spanned():
    setups = [r["setup"] for r in ROWS]
    types = {(s.get("hf_config") or {}).get("model_type") for s in setups}
    assert {"vit", "gpt2"} <= types
    assert {"BERT-large-uncased", "TinyLlama-1.1B", "GPT-2-XL"} <= {s.get("model") for s in setups}
    assert {s["precision"] for s in setups} == {"fp32", "amp-fp16", "amp-bf16", "bf16"}
    assert any(s.get("zero_stage") == 3 and s.get("world_size") == 4 for s in setups)
    assert any(s.get("zero_stage") == 3 and s.get("world_size") == 1 for s in setups)
    assert any(s.get("world_size") == 2 and not s.get("zero_stage") for s in setups)   # DDP
    assert any(s.get("quant") == "4bit" for s in setups)
    assert any(s.get("lora_r") and not s.get("quant") for s in setups)
    assert any(s.get("optimizer_in_backward") for s in setups)
    assert any(s.get("grad_ckpt") for s in setups)
    assert {"ran", "oom"} == {r["outcome"] for r in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"]
    if "/blob/" in source["url"]:
        assert len(source["url"].split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-9"
    assert row["measured"] == "max_memory_allocated"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    else:
        assert row["outcome"] == "oom" and "peak_bytes" not in row
    setup = row["setup"]
    assert setup["mode"] == "train" and (setup.get("seq_len") or setup.get("image_size"))
