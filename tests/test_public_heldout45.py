"""The forty-fifth held-out set (calibration/public/heldout45.json): 7 public rows (5 measured peaks, 2 OOM runs) from
five publishers that no estimator source cites (est36b's rule), none a CS336 student (see
calibration/public/build_heldout45.py for the sources); every
row sourced, the source's figure kept, and what the source leaves open recorded as unknown. Nothing here runs the
estimator."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from public_split_helpers import (
    all_urls,
    author_cited,
    estimator_sources_cited,
    measurement_publisher,
    page,
)

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout45.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
SW = "shawlleyw-instructgpt2-colossal-v100s"
BS = "bigsnarfdude-gpt2-lora-spam-rtx4070tisuper"
BK = "llamacookbook-413-llama2-7b-full-fp32-a100-80gb-oom"
TM = "openrlhf-698-llama3-8b-full-sft-zero2-a100-80gb-oom"
KM = "peft-76-bloomz-7b1-lora-fp32-a100-40gb"
#: rows per measuring publisher (est36b's measurement_publisher)
PER_PUBLISHER = {"shawlleyw": 3, "bigsnarfdude": 1, "bkhanal-11": 1, "tmfs10": 1, "karthikmurugadoss": 1}


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_publishers_independent_of_the_estimator_sources():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == sum(PER_PUBLISHER.values())
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 5, "oom": 2}
    assert {r["setup"]["mode"] for r in ROWS} == {"train"}
    pages, publishers, text = estimator_sources_cited(45)
    per_publisher = Counter(measurement_publisher(DOC["sources"][r["source"]]["url"], r["measured_by"])
                            for r in ROWS)
    assert per_publisher == PER_PUBLISHER
    # (a) no page of a row is a page the estimator's sources cite (renames and case read, est42split)
    assert not {page(u).rstrip(".") for u in all_urls(DOC)} & pages
    # (b) no measuring author is cited by them (as an owner or a word in their text)
    for row in ROWS:
        assert row["measured_by"] == DOC["sources"][row["source"]]["measured_by"]
        assert not author_cited(row["measured_by"], publishers, text), row["measured_by"]
    # (c) no CS336 course model
    assert {r["setup"].get("model", r["setup"].get("model_name")) for r in ROWS} == {"GPT-2", "Llama-2-7B", "Llama-3-8B", "BLOOM-7B1"}


def test_shawlleyw_rows_are_the_logged_max_allocated():
    got = {}
    for row in _rows(SW):
        s = row["setup"]
        assert (row["unit"], row["measured"], row["gpu"], row["outcome"]) == \
            ("GiB", "max_memory_allocated", "V100-SXM2-16GB", "ran")
        assert (s["model"], s["micro_batch"], s["seq_len"], s["padding"], s["optimizer"], s["grad_ckpt"]) == \
            ("GPT-2", 4, 512, "dynamic", "adamw", False)
        got[(s.get("lora_r"), s.get("quant"))] = (row["value"], s["precision"])
        assert any("1024**3" in u for u in row["unknown"])
    assert got == {(None, None): (7.47, "fp32"), (8, None): (5.19, "fp32"), (8, "8bit"): (2.75, "fp16")}
    for row in _rows(SW):
        if "lora_r" in row["setup"]:
            assert row["setup"]["lora_targets"] == ["c_attn"] and row["setup"]["lora_dropout"] == 0.1


def test_bigsnarfdude_row_is_an_nvidia_smi_reading():
    (row,) = _rows(BS)
    s = row["setup"]
    assert (row["value"], row["unit"], row["measured"], row["gpu"]) == \
        (2140, "MiB", "nvidia-smi", "RTX-4070-Ti-SUPER-16GB")
    assert (s["task"], s["num_labels"], s["precision"], s["optimizer"], s["micro_batch"], s["seq_len"]) == \
        ("sequence-classification", 2, "fp32", "adamw", 8, 120)
    assert (s["lora_r"], s["lora_targets"]) == (8, ["all-linear"])
    assert any("not known to be the peak" in u for u in row["unknown"])


def test_karthikmurugadoss_row_is_the_tracemalloc_total_peak():
    (row,) = _rows(KM)
    s = row["setup"]
    assert (row["value"], row["unit"], row["measured"], row["gpu"], row["outcome"]) == \
        (32037, "MiB", "max_memory_allocated", "A100-SXM-40GB", "ran")
    assert (s["model"], s["precision"], s["optimizer"], s["micro_batch"], s["seq_len"], s["padding"]) == \
        ("BLOOM-7B1", "fp32", "adamw", 8, 64, "max_length")
    assert (s["lora_r"], s["lora_targets"], s["grad_ckpt"]) == (8, ["query_key_value"], False)


def test_bkhanal_row_is_the_llama_recipes_defaults_oom():
    (row,) = _rows(BK)
    s = row["setup"]
    assert (row["outcome"], row["gpu"], row["measured"]) == ("oom", "A100-SXM-80GB", "oom")
    assert "value" not in row and "peak_bytes" not in row
    assert (s["model"], s["precision"], s["optimizer"], s["micro_batch"], s["seq_len"], s["padding"]) == \
        ("Llama-2-7B", "fp32", "adamw", 4, 4096, "packed")
    assert (s["grad_ckpt"], s["world_size"]) == (False, 1) and "lora_r" not in s and "quant" not in s


def test_tmfs10_row_is_the_openrlhf_zero2_oom_on_one_gpu():
    (row,) = _rows(TM)
    s = row["setup"]
    assert (row["outcome"], row["gpu"]) == ("oom", "A100-SXM-80GB")
    assert (s["model"], s["precision"], s["zero_stage"], s["world_size"], s["micro_batch"], s["seq_len"]) == \
        ("Llama-3-8B", "bf16", 2, 1, 1, 128)
    assert s["grad_ckpt"] and s["zero_client_optimizer"] and s["attention"] == "flash"


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    pinned = re.compile(r"/blob/[0-9a-f]{40}/|/(issues|pull)/\d+$")
    assert pinned.search(source["url"]), "every page pinned to a commit or a thread"
    assert all(pinned.search(u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-45"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and row["setup"].get("seq_len")


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-45"] == REPO / "calibration" / "public" / "heldout45.json"
    assert "--split held-out-45" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
