"""The thirty-eighth held-out set (calibration/public/heldout38.json): 11 public measured peaks from three publishers
that no estimator source cites (est36b's rule), none a decoder LM: sgugger's bert-base-cased MRPC fine-tunes on 2 GPUs
in fp32 and fp16 AMP (huggingface/transformers#9742, nvidia-smi MB), Azure/MS-AMP's FP16 AMP baselines of a 1.0B Swin
and a 1.2B ViT under 8-GPU DDP (README, nvidia-smi MB) and PiotrNawrot/nanoT5's T5 v1.1 base pre-training (README,
60 GB of an A100 80GB); every row sourced, the source's figure kept, and what the source leaves open recorded as
unknown. Nothing here runs the estimator."""

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
DOC = json.loads((PUBLIC / "heldout38.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
SG = "sgugger-bert-base-mrpc-fp16-vs-fp32-ddp2"
MS = "ms-amp-readme-fp16-amp-vision-memory"
NT = "nanot5-release-t5-v1.1-base-pretraining"
#: the table of huggingface/transformers#9742 (as #12258 quotes it): per-device batch -> (w/o --fp16, w/ --fp16) MB
PRINTED_SGUGGER = {8: (4247, 4163), 16: (4971, 4793), 32: (6827, 6207), 64: (10037, 8061)}
#: Azure/MS-AMP README at 119922a, FP16 AMP column: (model_type, batch) -> MB (the table's batch; the ViT row is
#: written at the run script's 64 since est81, the table's 128 kept in its id and its ``unknown``)
PRINTED_MS_AMP = {("swin", 16): 34322, ("vit", 128): 62696}
SCRIPT_BATCH = {("swin", 16): 16, ("vit", 128): 64}


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_three_publishers_independent_of_the_estimator_sources():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 11
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 11}
    assert all(r.get("peak_bytes") for r in ROWS)
    pages, publishers, text = estimator_sources_cited(38)
    per_publisher = Counter(measurement_publisher(DOC["sources"][r["source"]]["url"], r["measured_by"])
                            for r in ROWS)
    assert per_publisher == {"sgugger": 8, "azure": 2, "piotrnawrot": 1}
    # (a) no page of a row is a page the estimator's sources cite
    assert not {page(u).rstrip(".") for u in all_urls(DOC)} & pages
    # (b) no measuring author is cited by them (as an owner or a word in their text)
    for row in ROWS:
        assert row["measured_by"] == DOC["sources"][row["source"]]["measured_by"]
        assert not author_cited(row["measured_by"], publishers, text), row["measured_by"]


def test_no_decoder_language_model():
    kinds = Counter((r["setup"].get("hf_config") or {}).get("model_type") or r["setup"].get("model") for r in ROWS)
    assert kinds == {"BERT-base-cased": 8, "swin": 1, "vit": 1, "t5": 1}


def test_sgugger_rows_are_the_printed_table():
    got: dict = {}
    for r in _rows(SG):
        s = r["setup"]
        assert r["unit"] == "MiB" and r["measured"] == "nvidia-smi" and r["gpu"] == "unstated-GPU"
        assert s["task"] == "sequence-classification" and s["num_labels"] == 2 and s["world_size"] == 2
        assert s["seq_len"] == 128 and s["padding"] == "max_length" and s["transformers_version"] == "4.3.0"
        got.setdefault(s["micro_batch"], {})[s["precision"]] = r["value"]
    assert {b: (v["fp32"], v["amp-fp16"]) for b, v in got.items()} == PRINTED_SGUGGER


def test_ms_amp_rows_are_the_fp16_amp_column():
    got = {}
    for r in _rows(MS):
        s = r["setup"]
        assert r["measured"] == "nvidia-smi" and r["unit"] == "MiB" and r["gpu"] == "unstated-GPU"
        assert s["precision"] == "amp-fp16" and s["world_size"] == 8 and s["image_size"] == 224
        table_batch = 128 if s["hf_config"]["model_type"] == "vit" else s["micro_batch"]
        key = (s["hf_config"]["model_type"], table_batch)
        assert f"-b{table_batch}-" in r["id"] and s["micro_batch"] == SCRIPT_BATCH[key]
        got[key] = r["value"]
    assert got == PRINTED_MS_AMP


def test_nanot5_row_is_the_readme_sentence():
    (r,) = _rows(NT)
    s = r["setup"]
    assert (r["value"], r["unit"], r["gpu"]) == (60, "GiB", "A100-SXM-80GB")
    assert s["micro_batch"] * s["grad_accum"] == 128 and (s["seq_len"], s["target_len"]) == (512, 114)
    assert s["hf_config"]["feed_forward_proj"] == "gated-gelu" and s["precision"] == "fp32"


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    pinned = re.compile(r"/blob/[0-9a-f]{40}/|/(issues|pull)/\d+$")
    assert pinned.search(source["url"]), "every page pinned to a commit or a thread"
    assert all(pinned.search(u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-38"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and (row["setup"].get("seq_len") or row["setup"].get("image_size"))


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-38"] == REPO / "calibration" / "public" / "heldout38.json"
    assert "--split held-out-38" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
