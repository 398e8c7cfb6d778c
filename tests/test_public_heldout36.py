"""The thirty-sixth held-out set (calibration/public/heldout36.json): 14 public peaks from two publishers that no
estimator source cites (est36b's rule), two Stanford CS336 students' assignment-2 memory answers with the course's own
model (the xl with vocab 32,000 at batch 1 on a 96 GB RTX PRO 6000; a 2560-wide 8-layer variant at batch 4 on a GPU
the notes do not name); no-grad forward passes and AdamW training steps in fp32 and bf16 autocast; every row
sourced, the source's printed figure kept, and what the source leaves open recorded as unknown. Nothing here runs
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
DOC = json.loads((PUBLIC / "heldout36.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
LU = "cs336-luoluoluo0110-xl-v32k-rtxpro6000"
WJ = "cs336-wangjianbin8-xl8layer"
#: Luoluoluo0110's writeup/memory_profiling_results.md (MiB): (mode, precision, context) -> figure
PRINTED_LUOLUOLUO = {("infer", "fp32", 128): 13600, ("infer", "amp-bf16", 128): 20137,
                     ("train", "fp32", 128): 55428, ("train", "amp-bf16", 128): 55418,
                     ("infer", "fp32", 2048): 15984, ("infer", "amp-bf16", 2048): 21576,
                     ("train", "fp32", 2048): 94847, ("train", "amp-bf16", 2048): 86045}
#: wangjianbin8's 2.1.6 note, tables (b) and (c) (GiB): (mode, precision, context) -> figure
PRINTED_WANGJIANBIN = {("infer", "fp32", 128): 3.439, ("infer", "fp32", 2048): 5.831,
                       ("infer", "amp-bf16", 128): 4.988, ("infer", "amp-bf16", 2048): 6.697,
                       ("train", "fp32", 128): 16.740, ("train", "amp-bf16", 128): 16.713}


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_two_publishers_independent_of_the_estimator_sources():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 14
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 14}
    assert all(r.get("peak_bytes") for r in ROWS)
    pages, publishers, text = estimator_sources_cited(36)
    per_publisher = Counter(measurement_publisher(DOC["sources"][r["source"]]["url"], r["measured_by"])
                            for r in ROWS)
    assert per_publisher == {"luoluoluo0110": 8, "wangjianbin8": 6}
    assert len(per_publisher) >= 2
    # (a) no page of a row is a page the estimator's sources cite
    assert not {page(u).rstrip(".") for u in all_urls(DOC)} & pages
    # (b) no measuring author is cited by them (as an owner or a word in their text)
    for row in ROWS:
        assert row["measured_by"] == DOC["sources"][row["source"]]["measured_by"]
        assert not author_cited(row["measured_by"], publishers, text), row["measured_by"]


def test_luoluoluo_rows_are_the_printed_table():
    got = {}
    for r in _rows(LU):
        s = r["setup"]
        assert r["unit"] == "MiB" and r["gpu"] == "RTX-PRO-6000-Blackwell-96GB"
        assert s["micro_batch"] == 1 and s["hf_config"]["vocab_size"] == 32000
        assert s["hf_config"]["max_position_embeddings"] - 1 == s["seq_len"]   # the model is fed context - 1 tokens
        assert s["torch_version"] == "2.11.0"
        if s["mode"] == "train":
            assert s["optimizer"] == "adamw" and s["foreach"] is False and s["loss"] == "standard"
        got[(s["mode"], s["precision"], s["hf_config"]["max_position_embeddings"])] = r["value"]
    assert got == PRINTED_LUOLUOLUO


def test_wangjianbin_rows_are_the_printed_tables_with_the_script_shape():
    got = {}
    for r in _rows(WJ):
        s, cfg = r["setup"], r["setup"]["hf_config"]
        assert r["unit"] == "GiB" and r["gpu"] == "unstated-GPU"
        assert (cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"],
                cfg["num_attention_heads"], cfg["vocab_size"]) == (2560, 10240, 8, 8, 10000)
        assert s["micro_batch"] == 4 and s["seq_len"] == cfg["max_position_embeddings"]
        if s["mode"] == "train":
            assert s["loss"] == "logits" and s["foreach"] is True
        got[(s["mode"], s["precision"], s["seq_len"])] = r["value"]
    assert got == PRINTED_WANGJIANBIN


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert re.search(r"/blob/[0-9a-f]{40}/", source["url"]), "every page pinned to a commit"
    assert all(re.search(r"/blob/[0-9a-f]{40}/", u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-36"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-36"] == REPO / "calibration" / "public" / "heldout36.json"
    assert "--split held-out-36" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
