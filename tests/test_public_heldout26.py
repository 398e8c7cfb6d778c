"""The twenty-sixth held-out set (calibration/public/heldout26.json): 20 public rows from three pages no earlier split
read: NVIDIA NeMo AutoModel's gradient-checkpointing guide (Llama-3.2-1B on H100s: one GPU, FSDP2 on eight, with
activation checkpointing, with the fused linear cross-entropy), litgpt's LoRA / QLoRA tutorial table of Aug 2023
(StableLM-3B and Llama-2-7B on Alpaca at micro batch 4) and its StableLM-3B re-measurement in litgpt PR #596; every row
sourced, the source's printed figure kept, and what the source leaves open recorded as unknown. Nothing here runs the
estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout26.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 26)))]
AM = "automodel-gradient-checkpointing-guide-llama3.2-1b"
LORA = "litgpt-finetune-lora-tutorial-064fd52"
FABRIC = "litgpt-pr-596-fabric-quantization-remeasure"
#: AutoModel's table (GB): world size, checkpointing, loss -> figure
PRINTED_AM = {(1, False, "standard"): 53.03, (8, False, "standard"): 47.59, (8, True, "standard"): 33.06,
              (8, True, "fused"): 7.30}
#: the tutorial at 064fd52 (GB, None = 'OutOfMemoryError'): (model, precision, quant, double quant) -> figure
PRINTED_LORA = {
    ("stablelm", "amp-bf16", None, None): 33.50, ("stablelm", "bf16", None, None): 15.86,
    ("stablelm", "amp-bf16", "4bit", False): 22.34, ("stablelm", "amp-bf16", "4bit", True): 22.18,
    ("stablelm", "bf16", "4bit", False): 14.81, ("stablelm", "bf16", "4bit", True): 14.65,
    ("llama2", "amp-bf16", None, None): None, ("llama2", "bf16", None, None): 20.60,
    ("llama2", "amp-bf16", "4bit", False): 19.62, ("llama2", "amp-bf16", "4bit", True): 19.32,
    ("llama2", "bf16", "4bit", False): 13.44, ("llama2", "bf16", "4bit", True): 13.15,
}
#: PR #596's StableLM 3B re-measurement (GB)
PRINTED_FABRIC = {("amp-bf16", None, None): 38.01, ("bf16", None, None): 19.40, ("bf16", "4bit", False): 19.13,
                  ("bf16", "4bit", True): 18.97}


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def _lit_key(setup):
    return setup.get("precision"), setup.get("quant"), setup.get("double_quant")


def test_three_pages_no_earlier_split_read():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 20
    assert sum(1 for r in ROWS if r.get("peak_bytes")) == 19
    assert sum(1 for r in ROWS if r["outcome"] == "oom") == 1
    assert set(DOC["sources"]) == {AM, LORA, FABRIC}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    # one new publisher (NVIDIA-NeMo); Lightning-AI's litgpt is read by the devset, held-out-9 and held-out-25
    assert {publisher(u) for u in all_urls(DOC)} == {"nvidia-nemo", "lightning-ai"}


def test_the_automodel_rows_are_the_guides_cumulative_table():
    got = {}
    for r in _rows(AM):
        s = r["setup"]
        got[(s["world_size"], s["grad_ckpt"], s["loss"])] = r
        assert (s["model"], s["micro_batch"], s["seq_len"], s["precision"], s["torch_version"]) == (
            "Llama-3.2-1B", 8, 2048, "bf16", "2.8.0")
        assert (r["measured"], r["gpu"], r["unit"]) == ("max_memory_allocated", "H100-SXM-80GB", "GB")
        assert (s.get("fsdp"), s.get("fsdp_version")) == (("full", 2) if s["world_size"] == 8 else (None, None))
    assert set(got) == set(PRINTED_AM)
    for key, r in got.items():
        assert r["value"] == PRINTED_AM[key] and r["peak_bytes"] == round(PRINTED_AM[key] * 10**9)
    # each technique the table adds lowers the peak, as printed
    assert [got[k]["value"] for k in PRINTED_AM] == sorted((got[k]["value"] for k in PRINTED_AM), reverse=True)


def test_the_tutorial_rows_are_its_two_tables():
    got = {}
    for r in _rows(LORA):
        s = r["setup"]
        model = "stablelm" if s.get("hf_config", {}).get("model_type") == "gpt_neox" else "llama2"
        got[(model, *_lit_key(s))] = r
        assert (s["micro_batch"], s["grad_accum"], s["lora_r"], s["model_impl"]) == (4, 32, 8, "litgpt")
        assert s["seq_len"] == (1034 if model == "stablelm" else 1304)
        assert s.get("kbit_prepared") in (None, False)
    assert set(got) == set(PRINTED_LORA)
    for key, r in got.items():
        if PRINTED_LORA[key] is None:
            assert r["outcome"] == "oom" and "peak_bytes" not in r
        else:
            assert (r["outcome"], r["value"], r["unit"]) == ("ran", PRINTED_LORA[key], "GB")
    # the transcription keeps the tables' order: with bf16-true, double quantization saves a little on both models
    for model in ("stablelm", "llama2"):
        assert got[(model, "bf16", "4bit", True)]["value"] < got[(model, "bf16", "4bit", False)]["value"]


def test_the_fabric_rows_re_measure_the_same_stablelm_settings():
    got = {_lit_key(r["setup"]): r for r in _rows(FABRIC)}
    assert set(got) == set(PRINTED_FABRIC)
    tutorial = {_lit_key(r["setup"]): r["setup"] for r in _rows(LORA) if "hf_config" in r["setup"]}
    for key, r in got.items():
        assert r["value"] == PRINTED_FABRIC[key]
        assert r["setup"] == tutorial[key], "the same settings as the tutorial's StableLM row"


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-26"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-26"] == REPO / "calibration" / "public" / "heldout26.json"
    assert "--split held-out-26" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
