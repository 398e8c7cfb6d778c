"""The forty-third held-out set (calibration/public/heldout43.json): 12 public rows (6 measured peaks, 6 OOM runs) from
four publishers that no estimator source cites (est36b's rule), none a CS336 student: bharathbattu's Qwen2-0.5B full /
LoRA / QLoRA fine-tunes on a T4, junleiz's SimMIM ViT-B/16 fine-tune on 8 A100s (SimMIM#20), bhbyuh's RoBERTa-base full
fine-tune on an RTX A4000, and shirleyandgithub's deepseek-math-7b DeepSpeed runs on two RTX 4090 that ran out of
memory; every row sourced, the source's figure kept, and what the source leaves open recorded as unknown. Nothing
here runs the estimator."""

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
DOC = json.loads((PUBLIC / "heldout43.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
BB = "bharathbattu-qwen2-0.5b-lora-vs-full-t4"
SM = "simmim-issue-20-vit-b-finetune-a100"
BH = "bhbyuh-roberta-base-full-ft-rtx-a4000"
SH = "shirleyandgithub-deepseek-math-7b-zero-rtx4090"


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_four_publishers_independent_of_the_estimator_sources():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 12
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 6, "oom": 6}
    assert {r["setup"]["mode"] for r in ROWS} == {"train"}
    pages, publishers, text = estimator_sources_cited(43)
    per_publisher = Counter(measurement_publisher(DOC["sources"][r["source"]]["url"], r["measured_by"])
                            for r in ROWS)
    assert per_publisher == {"bharathbattu": 4, "junleiz": 1, "bhbyuh": 1, "shirleyandgithub": 6}
    # (a) no page of a row is a page the estimator's sources cite (renames and case read, est42split)
    assert not {page(u).rstrip(".") for u in all_urls(DOC)} & pages
    # (b) no measuring author is cited by them (as an owner or a word in their text)
    for row in ROWS:
        assert row["measured_by"] == DOC["sources"][row["source"]]["measured_by"]
        assert not author_cited(row["measured_by"], publishers, text), row["measured_by"]
    # (c) no CS336 course model: four model families (Qwen2, ViT, RoBERTa, DeepSeek-LLM)
    assert {r["setup"].get("model", r["setup"].get("model_name")) for r in ROWS} == \
        {"Qwen2-0.5B", "ViT-base-patch16-224", "RoBERTa-base", "deepseek-math-7b"}


def test_bharathbattu_rows_are_the_readme_table():
    got = {}
    for r in _rows(BB):
        s = r["setup"]
        assert (r["gpu"], r["unit"], r["measured"], r["outcome"]) == ("T4-16GB", "GiB", "max_memory_allocated", "ran")
        assert (s["model"], s["micro_batch"], s["grad_accum"], s["seq_len"], s["padding"]) == \
            ("Qwen2-0.5B", 2, 8, 256, "max_length")
        got[(s["precision"], s.get("lora_r"), s.get("quant"))] = r["value"]
    assert got == {("amp-fp16", None, None): 10.2, ("fp16", 8, None): 2.6, ("fp16", 64, None): 2.7,
                   ("fp16", 8, "4bit"): 1.6}
    qlora = next(r for r in _rows(BB) if r["setup"].get("quant"))["setup"]
    assert (qlora["quant_type"], qlora["double_quant"], qlora["kbit_prepared"], qlora["grad_ckpt"]) == \
        ("nf4", True, True, True)


def test_simmim_row_is_the_logged_mem():
    (row,) = _rows(SM)
    s = row["setup"]
    assert (row["value"], row["unit"], row["measured"], row["gpu"]) == \
        (39691, "MiB", "max_memory_allocated", "A100-SXM-80GB")
    assert (s["micro_batch"], s["grad_accum"], s["world_size"], s["image_size"]) == (128, 2, 8, 224)
    assert (s["precision"], s["amp_impl"], s["packed_qkv"]) == ("amp-fp16", "apex", True)


def test_bhbyuh_row_is_the_full_fine_tune_reading():
    (row,) = _rows(BH)
    s = row["setup"]
    assert (row["value"], row["unit"], row["measured"], row["gpu"]) == \
        (11.07, "GiB", "max_memory_allocated", "RTX-A4000-16GB")
    assert (s["model"], s["task"], s["num_labels"], s["precision"]) == \
        ("RoBERTa-base", "sequence-classification", 2, "fp32")
    assert (s["micro_batch"], s["seq_len"], s["padding"], s["grad_ckpt"]) == (32, 512, "max_length", False)


def test_shirleyandgithub_rows_are_the_six_ooms():
    got = set()
    for r in _rows(SH):
        s = r["setup"]
        assert (r["outcome"], r["gpu"], s["world_size"], s["micro_batch"], s["seq_len"]) == \
            ("oom", "RTX-4090-24GB", 2, 1, 512)
        assert s["hf_config"]["num_hidden_layers"] == 30 and s["hf_config"]["vocab_size"] == 102400
        assert (s["precision"], s["zero_client_optimizer"]) == ("bf16", True)
        got.add((s["zero_stage"], s["grad_ckpt"], s.get("offload_optimizer")))
    assert got == {(0, False, None), (1, False, None), (2, False, None), (3, False, None), (3, True, None),
                   (2, True, "cpu")}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    pinned = re.compile(r"/blob/[0-9a-f]{40}/|/(issues|pull)/\d+$")
    assert pinned.search(source["url"]), "every page pinned to a commit or a thread"
    assert all(pinned.search(u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-43"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and (row["setup"].get("seq_len") or row["setup"].get("image_size"))


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-43"] == REPO / "calibration" / "public" / "heldout43.json"
    assert "--split held-out-43" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
