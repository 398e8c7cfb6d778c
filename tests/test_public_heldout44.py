"""The forty-fourth held-out set (calibration/public/heldout44.json): 7 public rows (2 measured peaks, 5 OOM runs) from
six publishers that no estimator source cites (est36b's rule), none a CS336 student: the AUB HPC user guide's
Llama-2-7B LoRA on an LLM.int8 base under llama-recipes on a 32 GB V100, patidarabhayn1's GPT-2-medium full fine-tune
for CoLA, david1983's GPT-2 run_language_modeling OOM on a Colab T4 (transformers#3360), xiaoruirui356's Qwen1.5-7B
ZeRO-2 OOM on eight 40 GB A100s (LlamaFactory#4133), weilx2267's Qwen2.5-3B ZeRO-2 OOM on four RTX 3090
(LlamaFactory#6752) and Maydaytyh's Llama-3-8B OpenRLHF ZeRO-2 OOM on one and four RTX 3090 (OpenRLHF#597); every row
sourced, the source's figure kept, and what the source leaves open recorded as unknown. Nothing here runs the
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
DOC = json.loads((PUBLIC / "heldout44.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
HA = "hpcaub-llama2-7b-lora-int8-llama-recipes-v100"
PA = "patidarabhayn1-gpt2-medium-cola-full-ft"
DV = "transformers-3360-gpt2-run-language-modeling-t4-oom"
XR = "llamafactory-4133-qwen1.5-7b-full-zero2-a100-40gb-oom"
WL = "llamafactory-6752-qwen2.5-3b-full-zero2-rtx3090-oom"
MT = "openrlhf-597-llama3-8b-full-sft-zero2-rtx3090-oom"


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_six_publishers_independent_of_the_estimator_sources():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 7
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 2, "oom": 5}
    assert {r["setup"]["mode"] for r in ROWS} == {"train"}
    pages, publishers, text = estimator_sources_cited(44)
    per_publisher = Counter(measurement_publisher(DOC["sources"][r["source"]]["url"], r["measured_by"])
                            for r in ROWS)
    assert per_publisher == {"hpcaubuserguide": 1, "patidarabhayn1": 1, "david1983": 1, "xiaoruirui356": 1,
                             "weilx2267": 1, "maydaytyh": 2}
    # (a) no page of a row is a page the estimator's sources cite (renames and case read, est42split)
    assert not {page(u).rstrip(".") for u in all_urls(DOC)} & pages
    # (b) no measuring author is cited by them (as an owner or a word in their text)
    for row in ROWS:
        assert row["measured_by"] == DOC["sources"][row["source"]]["measured_by"]
        assert not author_cited(row["measured_by"], publishers, text), row["measured_by"]
    # (c) no CS336 course model: Llama-2, GPT-2, Qwen1.5, Qwen2.5, Llama-3
    assert {r["setup"].get("model", r["setup"].get("model_name")) for r in ROWS} == \
        {"Llama-2-7B", "GPT-2-Medium", "GPT-2", "Qwen1.5-7B", "Qwen2.5-3B", "Llama-3-8B"}


def test_hpcaub_row_is_the_logged_floor_of_max_allocated():
    (row,) = _rows(HA)
    s = row["setup"]
    assert (row["value"], row["unit"], row["measured"], row["gpu"], row["outcome"]) == \
        (21, "GiB", "max_memory_allocated", "V100-SXM2-32GB", "ran")
    assert (s["model"], s["quant"], s["kbit_prepared"], s["lora_r"], s["lora_targets"]) == \
        ("Llama-2-7B", "8bit", True, 8, ["q_proj", "v_proj"])
    assert (s["micro_batch"], s["seq_len"], s["padding"], s["grad_ckpt"], s["optimizer"]) == \
        (4, 2048, "packed", True, "adamw")
    assert any("floor" in u or "int(" in u for u in row["unknown"])


def test_patidarabhayn1_row_is_the_full_fine_tune_reading():
    (row,) = _rows(PA)
    s = row["setup"]
    assert (row["value"], row["unit"], row["measured"], row["gpu"]) == \
        (9.97, "GB", "max_memory_allocated", "unstated-GPU")
    assert (s["model"], s["task"], s["num_labels"], s["precision"], s["optimizer"]) == \
        ("GPT-2-Medium", "sequence-classification", 2, "fp32", "adam")
    assert (s["micro_batch"], s["seq_len"], s["padding"]) == (128, 20, "max_length")
    assert "lora_r" not in s, "the LoRA figure is left out (a dense L@R delta per forward)"


def test_single_gpu_and_zero2_oom_rows():
    (dv,) = _rows(DV)
    assert (dv["outcome"], dv["gpu"], dv["setup"]["model"], dv["setup"]["precision"]) == \
        ("oom", "T4-16GB", "GPT-2", "fp32")
    assert (dv["setup"]["micro_batch"], dv["setup"]["seq_len"]) == (4, 1024)
    (xr,) = _rows(XR)
    s = xr["setup"]
    assert (xr["outcome"], xr["gpu"], s["world_size"], s["zero_stage"], s["precision"]) == \
        ("oom", "A100-SXM-40GB", 8, 2, "amp-fp16")
    assert s["hf_config"]["num_hidden_layers"] == 32 and s["hf_config"]["vocab_size"] == 151936
    (wl,) = _rows(WL)
    s = wl["setup"]
    assert (wl["outcome"], wl["gpu"], s["model"], s["world_size"], s["zero_stage"], s["seq_len"]) == \
        ("oom", "RTX-3090-24GB", "Qwen2.5-3B", 4, 2, 512)
    got = set()
    for r in _rows(MT):
        s = r["setup"]
        assert (r["outcome"], r["gpu"], s["model"], s["zero_stage"], s["precision"], s["seq_len"]) == \
            ("oom", "RTX-3090-24GB", "Llama-3-8B", 2, "bf16", 2048)
        got.add(s["world_size"])
    assert got == {1, 4}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    pinned = re.compile(r"/blob/[0-9a-f]{40}/|/(issues|pull)/\d+$")
    assert pinned.search(source["url"]), "every page pinned to a commit or a thread"
    assert all(pinned.search(u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-44"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and row["setup"].get("seq_len")


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-44"] == REPO / "calibration" / "public" / "heldout44.json"
    assert "--split held-out-44" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
