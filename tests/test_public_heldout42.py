"""The forty-second held-out set (calibration/public/heldout42.json): 23 public rows (21 measured peaks, 2 OOM runs)
from three publishers that no estimator source cites (est36b's rule), all CS336 students measuring the course model:
BraveBeter's xl forward / training-step peaks on an H200 (runs.jsonl bytes, two OOMs at batch 4 x 2048) and 'medium'
training steps with and without per-block checkpointing on an RTX 4090, brandon-snider's 2.7B fp32 training steps on an
H100, and lightartw's 'large' no-grad forward peaks on a laptop RTX 4060; every row sourced, the source's figure kept,
and what the source leaves open recorded as unknown. Nothing here runs the estimator."""

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
DOC = json.loads((PUBLIC / "heldout42.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
XL = "cs336-bravebeter-xl-h200"
MD = "cs336-bravebeter-a2k-medium-ckpt-rtx4090"
BS = "cs336-brandon-snider-2p7b-h100"
LW = "cs336-lightartw-large-rtx4060-laptop"


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_three_publishers_independent_of_the_estimator_sources():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 23
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 21, "oom": 2}
    assert Counter(r["setup"]["mode"] for r in ROWS) == {"train": 13, "infer": 10}
    pages, publishers, text = estimator_sources_cited(42)
    per_publisher = Counter(measurement_publisher(DOC["sources"][r["source"]]["url"], r["measured_by"])
                            for r in ROWS)
    assert per_publisher == {"bravebeter": 14, "brandon-snider": 3, "lightartw": 6}
    # (a) no page of a row is a page the estimator's sources cite (renames and case read, est42split)
    assert not {page(u).rstrip(".") for u in all_urls(DOC)} & pages
    # (b) no measuring author is cited by them (as an owner or a word in their text)
    for row in ROWS:
        assert row["measured_by"] == DOC["sources"][row["source"]]["measured_by"]
        assert not author_cited(row["measured_by"], publishers, text), row["measured_by"]


def test_bravebeter_xl_rows_are_the_runs_jsonl_bytes():
    got = {}
    for r in _rows(XL):
        s = r["setup"]
        assert r["gpu"] == "H200-141GB"
        assert s["hf_config"]["hidden_size"] == 2560 and s["hf_config"]["num_hidden_layers"] == 32
        assert s["hf_config"]["vocab_size"] == 10000 and s["seq_len"] == s["hf_config"]["max_position_embeddings"]
        if r["outcome"] == "oom":
            assert (s["mode"], s["micro_batch"], s["seq_len"]) == ("train", 4, 2048)
            continue
        assert (r["unit"], r["measured"]) == ("MiB", "max_memory_allocated")
        got[(s["mode"], s["precision"], s["micro_batch"], s["seq_len"])] = r["peak_bytes"]
    expected = {("infer", "fp32", 4, 128): 13884909568, ("train", "fp32", 4, 128): 55256670720,
                ("infer", "fp32", 4, 2048): 22895028224, ("train", "fp32", 1, 2048): 97934715904,
                ("infer", "amp-bf16", 4, 128): 20581459968, ("train", "amp-bf16", 4, 128): 55245578752,
                ("infer", "amp-bf16", 4, 2048): 27246618624, ("train", "amp-bf16", 1, 2048): 88635190272}
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert abs(got[key] - value) <= 2**20 * 0.01, key   # MiB to two decimals


def test_bravebeter_medium_rows_are_the_a2k_table():
    got = {}
    for r in _rows(MD):
        s = r["setup"]
        assert (r["gpu"], r["unit"], r["measured"]) == ("RTX-4090-24GB", "MiB", "max_memory_allocated")
        assert (s["micro_batch"], s["precision"], s["mode"]) == (1, "amp-bf16", "train")
        assert (s["hf_config"]["hidden_size"], s["hf_config"]["num_hidden_layers"]) == (1024, 24)
        got[(s["seq_len"], s["grad_ckpt"])] = r["value"]
    assert got == {(1024, False): 10046.13, (1024, True): 8096.54, (2048, False): 19623.67, (2048, True): 8094.93}


def test_brandon_snider_rows_are_the_writeup_table():
    got = {}
    for r in _rows(BS):
        s = r["setup"]
        assert (r["gpu"], r["unit"], r["measured"]) == ("H100-SXM-80GB", "GiB", "peak_memory_active")
        assert (s["micro_batch"], s["precision"], s["mode"], s["foreach"]) == (4, "fp32", "train", False)
        assert s["hf_config"]["hidden_size"] == 2560
        got[s["seq_len"]] = r["value"]
    assert got == {128: 51.1, 256: 51.2, 512: 65.4}


def test_lightartw_rows_are_the_writeup_table_on_an_uncatalogued_card():
    from preflight import hardware  # type: ignore[attr-defined]

    got = {}
    for r in _rows(LW):
        s = r["setup"]
        assert (r["gpu"], r["unit"], r["measured"], r["outcome"]) == \
            ("RTX-4060-Laptop-8GB", "GiB", "max_memory_allocated", "ran")
        assert hardware.find(r["gpu"]) is None
        assert (s["micro_batch"], s["mode"]) == (4, "infer")
        assert (s["hf_config"]["hidden_size"], s["hf_config"]["num_hidden_layers"]) == (1280, 36)
        got[(s["precision"], s["seq_len"])] = r["value"]
    assert got == {("amp-bf16", 128): 5.53, ("amp-bf16", 256): 5.56, ("amp-bf16", 512): 5.77,
                   ("fp32", 128): 3.78, ("fp32", 256): 3.87, ("fp32", 512): 4.16}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    pinned = re.compile(r"/blob/[0-9a-f]{40}/|/(issues|pull)/\d+$")
    assert pinned.search(source["url"]), "every page pinned to a commit or a thread"
    assert all(pinned.search(u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-42"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and row["setup"].get("seq_len")


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-42"] == REPO / "calibration" / "public" / "heldout42.json"
    assert "--split held-out-42" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
