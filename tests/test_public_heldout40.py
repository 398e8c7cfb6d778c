"""The fortieth held-out set (calibration/public/heldout40.json): 12 public rows from four issue and pull-request
authors that no estimator source cites (est36b's rule): Flywolfs' nine per-GPU figures of BELLE's DeepSpeed-Chat full
fine-tuning of BLOOM 560M / 1.1B under ZeRO stage 1, 2 and 3 on two TITAN RTX (LianjiaTech/BELLE#402), rohan-varma's and
kartikayk's peak-allocated figures of torchtune's Llama 2 7B low-memory full fine-tune at batch 4 of 2048 tokens
(meta-pytorch/torchtune#961: 20.2 on an unnamed GPU, 22.3 on an A100) and HodorTheCoder's out-of-memory run of the GPT-2
run_clm.py example with its defaults on a 32 GB V100 (huggingface/transformers#10754); every row sourced, the source's
figure kept, and what the source leaves open recorded as unknown. Nothing here runs the estimator."""

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
DOC = json.loads((PUBLIC / "heldout40.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
FW = "flywolfs-belle402-bloom-dschat-zero123"
RV = "rohan-varma-torchtune961-llama2-7b-full-lowmem"
KK = "kartikayk-torchtune961-llama2-7b-full-lowmem-a100"
HC = "hodorthecoder-transformers10754-gpt2-run-clm-oom"


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_four_publishers_independent_of_the_estimator_sources():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 12
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 11, "oom": 1}
    assert all(r.get("peak_bytes") for r in ROWS if r["outcome"] == "ran")
    pages, publishers, text = estimator_sources_cited(40)
    per_publisher = Counter(measurement_publisher(DOC["sources"][r["source"]]["url"], r["measured_by"])
                            for r in ROWS)
    assert per_publisher == {"flywolfs": 9, "rohan-varma": 1, "kartikayk": 1, "hodorthecoder": 1}
    # (a) no page of a row is a page the estimator's sources cite
    assert not {page(u).rstrip(".") for u in all_urls(DOC)} & pages
    # (b) no measuring author is cited by them (as an owner or a word in their text)
    for row in ROWS:
        assert row["measured_by"] == DOC["sources"][row["source"]]["measured_by"]
        assert not author_cited(row["measured_by"], publishers, text), row["measured_by"]


def test_flywolfs_rows_are_the_issue_figures_gpu0_kept():
    got = {}
    for r in _rows(FW):
        s = r["setup"]
        assert r["gpu"] == "TITAN-RTX-24GB" and r["unit"] == "GiB" and r["measured"] == "nvidia-smi"
        assert (s["micro_batch"], s["world_size"], s["precision"], s["padding"]) == (1, 2, "amp-fp16", "max_length")
        got[(s["model"], s["seq_len"], s["zero_stage"])] = r["value"]
        assert (s.get("max_live_parameters"), s.get("prefetch_bucket_size")) == (
            (30_000_000, 30_000_000) if s["zero_stage"] == 3 else (None, None))
    assert got == {("BLOOM-560M", 512, 1): 12.6, ("BLOOM-560M", 1024, 1): 12.6, ("BLOOM-1B1", 512, 1): 20.7,
                   ("BLOOM-560M", 512, 2): 12.0, ("BLOOM-560M", 1024, 2): 12.0, ("BLOOM-1B1", 512, 2): 21.5,
                   ("BLOOM-560M", 512, 3): 12.9, ("BLOOM-560M", 1024, 3): 12.8, ("BLOOM-1B1", 512, 3): 21.7}


def test_torchtune_rows_are_the_pull_request_figures():
    (rv,) = _rows(RV)
    (kk,) = _rows(KK)
    assert (rv["value"], rv["unit"], rv["gpu"]) == (20.2, "GB", "unstated-GPU")
    assert (kk["value"], kk["unit"], kk["gpu"]) == (22.3, "GB", "A100-SXM-80GB")
    assert rv["setup"] == kk["setup"]
    s = rv["setup"]
    assert (s["model"], s["micro_batch"], s["seq_len"], s["optimizer"]) == ("Llama-2-7B", 4, 2048, "paged-adamw")
    assert s["optimizer_in_backward"] and s["grad_ckpt"] and s["model_impl"] == "torchtune"
    assert rv["measured"] == kk["measured"] == "max_memory_allocated"


def test_hodorthecoder_row_is_an_out_of_memory_verdict():
    (r,) = _rows(HC)
    s = r["setup"]
    assert r["outcome"] == "oom" and "peak_bytes" not in r and r["gpu"] == "V100-SXM2-32GB"
    assert (s["model"], s["micro_batch"], s["seq_len"], s["precision"]) == ("GPT-2", 8, 1024, "fp32")
    assert s["world_size"] == 1 and not s["grad_ckpt"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    pinned = re.compile(r"/blob/[0-9a-f]{40}/|/(issues|pull)/\d+$")
    assert pinned.search(source["url"]), "every page pinned to a commit or a thread"
    assert all(pinned.search(u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-40"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and row["setup"].get("seq_len")


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-40"] == REPO / "calibration" / "public" / "heldout40.json"
    assert "--split held-out-40" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
