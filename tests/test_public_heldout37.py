"""The thirty-seventh held-out set (calibration/public/heldout37.json): 7 public rows from two publishers that no
estimator source cites (est36b's rule), neither of them CS336: project-baize's LLaMA 7B / 13B / 30B LoRA fine-tunes on
an 8-bit base (README GB on an A100-80G) and PrimeIntellect-ai/prime-rl's automated benchmark of Qwen3-0.6B full SFT
on one GPU under FSDP2 (max_memory_reserved GiB on an H100 80GB and an RTX A6000, and an out-of-memory run); every
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
DOC = json.loads((PUBLIC / "heldout37.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
BZ = "baize-llama-int8-lora-a100"
PR = "prime-rl-qwen3-0.6b-sft-fsdp2-1gpu"
#: Baize's README at 9acab56, "GPU VRAM Consumption" (GB): model -> (per-device batch, figure)
PRINTED_BAIZE = {"LLaMA-7B": (32, 26), "LLaMA-13B": (16, 25), "LLaMA-30B (decapoda llama-30b-hf)": (8, 42)}
#: prime-rl's result files at b798a90 (peak_memory.gib): (GPU, tokens per micro batch) -> figure
PRINTED_PRIME_RL = {("H100-SXM-80GB", 8192): 31.7421875, ("RTX-A6000-48GB", 8192): 31.21484375,
                    ("H100-SXM-80GB", 16384): 52.83984375}


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_two_publishers_independent_of_the_estimator_sources():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 7
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 6, "oom": 1}
    assert all(r.get("peak_bytes") for r in ROWS if r["outcome"] == "ran")
    pages, publishers, text = estimator_sources_cited(37)
    per_publisher = Counter(measurement_publisher(DOC["sources"][r["source"]]["url"], r["measured_by"])
                            for r in ROWS)
    assert per_publisher == {"project-baize": 3, "primeintellect-ai": 4}
    assert len(per_publisher) >= 2
    # (a) no page of a row is a page the estimator's sources cite
    assert not {page(u).rstrip(".") for u in all_urls(DOC)} & pages
    # (b) no measuring author is cited by them (as an owner or a word in their text)
    for row in ROWS:
        assert row["measured_by"] == DOC["sources"][row["source"]]["measured_by"]
        assert not author_cited(row["measured_by"], publishers, text), row["measured_by"]


def test_baize_rows_are_the_printed_table_with_the_script_settings():
    got = {}
    for r in _rows(BZ):
        s = r["setup"]
        assert r["unit"] == "GiB" and r["measured"] == "nvidia-smi" and r["gpu"] == "A100-SXM-80GB"
        assert s["quant"] == "8bit" and s["kbit_prepared"] is True and s["grad_ckpt"] is True
        assert s["lora_r"] == 8 and s["lora_dropout"] == 0.05 and len(s["lora_targets"]) == 6
        assert s["seq_len"] == 512 and s["padding"] == "max_length" and s["precision"] == "amp-fp16"
        assert s["micro_batch"] * s["grad_accum"] == 64          # the script's total batch
        got[s.get("model") or s["model_name"]] = (s["micro_batch"], r["value"])
    assert got == PRINTED_BAIZE


def test_prime_rl_rows_are_the_result_files():
    got = {}
    for r in _rows(PR):
        s = r["setup"]
        assert s["model"] == "Qwen3-0.6B" and s["fsdp"] == "full" and s["fsdp_version"] == 2
        assert s["world_size"] == 1 and s["micro_batch"] == 1 and s["grad_accum"] == 2
        assert s["grad_ckpt"] is True and s["compiled"] is True and s["compiled_loss"] is False
        assert r["measured"] == "memory_reserved"
        if r["outcome"] == "oom":
            assert (r["gpu"], s["seq_len"]) == ("H100-SXM-80GB", 65536) and "OutOfMemoryError" in r["notes"]
            continue
        assert r["unit"] == "GiB"
        got[(r["gpu"], s["seq_len"])] = r["value"]
    assert got == PRINTED_PRIME_RL


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert re.search(r"/blob/[0-9a-f]{40}/", source["url"]), "every page pinned to a commit"
    assert all(re.search(r"/blob/[0-9a-f]{40}/", u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-37"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-37"] == REPO / "calibration" / "public" / "heldout37.json"
    assert "--split held-out-37" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
