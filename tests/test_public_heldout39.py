"""The thirty-ninth held-out set (calibration/public/heldout39.json): 4 public rows from three issue authors that no
estimator source cites (est36b's rule): andrei-saceleanu's RoBERTa-large sequence-classification fine-tunes at batch 64
of 96 tokens, full and LoRA r=8 (huggingface/peft#675, "around 17 GB" / "12 GB", GPU not named), NiftyliuS's Llama 2
13B chat 8-bit LoRA recipe run at batch 16 on an RTX 3090 (meta-llama/llama-cookbook#99, 22.7 GB) and dongwook92's
Llama-3-8B full bf16 fine-tune with Liger's kernels that ran out of memory on an A100 40GB (linkedin/Liger-Kernel#311);
every row sourced, the source's figure kept, and what the source leaves open recorded as unknown. Nothing here runs
the estimator."""

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
DOC = json.loads((PUBLIC / "heldout39.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
AS = "andrei-saceleanu-peft675-roberta-large-seqcls"
NL = "niftylius-llama-recipes99-llama2-13b-8bit-lora"
DW = "dongwook92-liger311-llama3-8b-full-bf16-oom"


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_three_publishers_independent_of_the_estimator_sources():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 4
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 3, "oom": 1}
    assert all(r.get("peak_bytes") for r in ROWS if r["outcome"] == "ran")
    pages, publishers, text = estimator_sources_cited(39)
    per_publisher = Counter(measurement_publisher(DOC["sources"][r["source"]]["url"], r["measured_by"])
                            for r in ROWS)
    assert per_publisher == {"andrei-saceleanu": 2, "niftylius": 1, "dongwook92": 1}
    # (a) no page of a row is a page the estimator's sources cite
    assert not {page(u).rstrip(".") for u in all_urls(DOC)} & pages
    # (b) no measuring author is cited by them (as an owner or a word in their text)
    for row in ROWS:
        assert row["measured_by"] == DOC["sources"][row["source"]]["measured_by"]
        assert not author_cited(row["measured_by"], publishers, text), row["measured_by"]


def test_andrei_saceleanu_rows_are_the_issue_figures():
    got = {}
    for r in _rows(AS):
        s = r["setup"]
        assert r["gpu"] == "unstated-GPU" and r["unit"] == "GiB"
        assert (s["model"], s["micro_batch"], s["seq_len"]) == ("RoBERTa-large", 64, 96)
        got["lora" if s.get("lora_r") else "full"] = (r["value"], s.get("lora_r"))
    assert got == {"full": (17, None), "lora": (12, 8)}


def test_niftylius_row_is_the_recipe_at_the_threads_date():
    (r,) = _rows(NL)
    s = r["setup"]
    assert (r["value"], r["unit"], r["gpu"]) == (22.7, "GiB", "RTX-3090-24GB")
    assert (s["model"], s["quant"], s["lora_r"], s["micro_batch"], s["seq_len"]) == ("Llama-2-13B", "8bit", 8, 16, 224)
    assert s["lora_targets"] == ["q_proj", "v_proj"] and s["kbit_prepared"] and s["grad_ckpt"]


def test_dongwook92_row_is_an_out_of_memory_verdict():
    (r,) = _rows(DW)
    s = r["setup"]
    assert r["outcome"] == "oom" and "peak_bytes" not in r and r["gpu"] == "A100-SXM-40GB"
    assert (s["model"], s["micro_batch"], s["seq_len"], s["loss"]) == ("Llama-3-8B", 2, 512, "fused")
    assert s["world_size"] == 1 and s["weights_bits"] == 16 and not s.get("lora_r")


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    pinned = re.compile(r"/blob/[0-9a-f]{40}/|/(issues|pull)/\d+$")
    assert pinned.search(source["url"]), "every page pinned to a commit or a thread"
    assert all(pinned.search(u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-39"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and row["setup"].get("seq_len")


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-39"] == REPO / "calibration" / "public" / "heldout39.json"
    assert "--split held-out-39" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
