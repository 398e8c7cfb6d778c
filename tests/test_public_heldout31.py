"""The thirty-first held-out set (calibration/public/heldout31.json): 15 public rows from four publishers no earlier
split read: Benjamin Bossan's peft-experiments logs (six training rows: Llama-3-8B-Instruct LoRA / QLoRA with PEFT and
torchtune on RTX 4090s, with and without FSDP, and Llama-2-7B QLoRA with FSDP and CPU offload), faster-whisper's README
benchmark (Whisper large-v2 beam-5 transcription) and two PKU NLPDL 2024 homework repositories (GPT-2 / Llama-2-7B fp32
generation); every row sourced, the source's printed figure kept, and what the source leaves open recorded as unknown.
Nothing here runs the estimator."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from public_split_helpers import (
    all_urls,
    page,
    publisher,
    publishers_cited_under_calibration_and_bench,
)

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout31.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 31)))]
BBLORA = "peft-experiments-llama3-lora-single-4090"
BBQLORA = "peft-experiments-llama3-qlora-single-4090"
BBFSDP = "peft-experiments-llama3-lora-fsdp-2x4090"
BBAA = "peft-experiments-llama2-qlora-fsdp-offload-2x4090"
FWNEW = "faster-whisper-readme-benchmark-97a4785"
FWOLD = "faster-whisper-readme-benchmark-58f4447"
CBPKU = "pku-nlpdl-2024-hw3-cby-pku-inference-test"
HLMIAO = "pku-nlpdl-2024-hw3-huolanmiao-kvcache"
#: the largest peak_memory_alloc (torchtune's get_memory_stats: max_memory_allocated / 1e9) of each log
PRINTED_BOSSAN = {("Llama-3-8B", "transformers", None, None): 23.446532096,
                  ("Llama-3-8B", "transformers", "4bit", None): 18.969474048,
                  ("Llama-3-8B", "torchtune", "4bit", None): 16.38058752,
                  ("Llama-3-8B", "transformers", None, "full"): 17.504780288,
                  ("Llama-3-8B", "torchtune", None, "full"): 17.579687936,
                  ("Llama-2-7B", "transformers", "4bit", "full"): 8.746859008}
#: faster-whisper's 'VRAM Usage' / 'Max. GPU memory' cells (MB read as NVML MiB): (README commit, precision) -> MiB
PRINTED_WHISPER = {("97a4785", "fp16", None): 4708, ("97a4785", "fp16", "4.46.3"): 4960,
                   ("58f4447", "amp-fp16", None): 11325}
#: the NLPDL figures (MiB): (publisher, model, use_cache) -> figure
PRINTED_NLPDL = {("cby-pku", "GPT-2", False): 524.2177734375, ("cby-pku", "GPT-2", True): 504.27001953125,
                 ("cby-pku", "Llama-2-7B", False): 25722.81298828125, ("cby-pku", "Llama-2-7B", True): 25763.7705078125,
                 ("huolanmiao", "GPT-2", False): 1072.46, ("huolanmiao", "GPT-2", True): 638.07}


def _rows(*sources):
    return [r for r in ROWS if r["source"] in sources]


def test_four_publishers_no_earlier_split_read_none_over_half():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 15
    assert all(r["outcome"] == "ran" and r.get("peak_bytes") for r in ROWS)
    per_publisher = Counter(publisher(DOC["sources"][r["source"]]["url"]) for r in ROWS)
    assert per_publisher == {"benjaminbossan": 6, "systran": 3, "cby-pku": 4, "huolanmiao": 2}
    assert max(per_publisher.values()) * 2 < len(ROWS), per_publisher
    used_pages = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used_pages
    earlier_publishers = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("http")}
    assert not set(per_publisher) & earlier_publishers
    # stricter than the earlier splits' sources: no URL anywhere under calibration/public or bench names them
    assert not set(per_publisher) & publishers_cited_under_calibration_and_bench(31)


def test_six_training_rows_and_five_rows_torch_preflight_can_be_asked_about():
    train = [r for r in ROWS if r["setup"]["mode"] == "train"]
    assert len(train) == 6
    assert all(r["setup"]["optimizer"] == "adamw" and r["setup"].get("lora_r") for r in train)
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    causal_plain = [r for r in ROWS if pa.tp_expressible(r["setup"]) and r["setup"].get("model") in (
        "GPT-2", "Llama-2-7B")]
    assert len(causal_plain) >= 5
    assert {r["setup"]["mode"] for r in causal_plain} == {"generate"}


def test_the_bossan_rows_are_the_largest_logged_peaks():
    got = {}
    for r in _rows(BBLORA, BBQLORA, BBFSDP, BBAA):
        s = r["setup"]
        key = (s["model"], s.get("model_impl", "transformers"), s.get("quant"), s.get("fsdp"))
        assert key not in got
        got[key] = r["value"]
        assert (r["measured"], r["unit"], r["gpu"]) == ("max_memory_allocated", "GB", "RTX-4090-24GB")
        assert r["peak_bytes"] == round(r["value"] * 10**9)
        assert f"peak_memory_alloc:{r['value']}" in r["notes"] or f'"peak_memory_alloc\\": {r["value"]}' in \
            r["notes"] or f'"peak_memory_alloc": {r["value"]}' in r["notes"]
        assert (s["mode"], s["precision"], s["optimizer"], s["lora_r"], s["seq_len"], s["grad_ckpt"]) == (
            "train", "bf16", "adamw", 8, 512, False)
        assert s["torch_version"] == "2.3.1"
        assert s["world_size"] == (2 if s.get("fsdp") else 1)
    assert got == PRINTED_BOSSAN
    # as logged: QLoRA below LoRA on one card; the offloaded 7B QLoRA far below both
    assert PRINTED_BOSSAN[("Llama-3-8B", "transformers", "4bit", None)] < PRINTED_BOSSAN[
        ("Llama-3-8B", "transformers", None, None)]


def test_the_whisper_rows_are_the_readme_cells():
    got = {}
    for r in _rows(FWNEW, FWOLD):
        s = r["setup"]
        commit = DOC["sources"][r["source"]]["url"].split("/blob/")[1][:7]
        got[(commit, s["precision"], s.get("transformers_version"))] = r["value"]
        assert (r["measured"], r["unit"]) == ("nvidia-smi", "MiB")
        assert (s["model"], s["mode"], s["num_beams"], s["micro_batch"]) == ("Whisper-large-v2", "generate", 5, 1)
        assert f"| {r['value']}MB |" in r["notes"]
        assert r["peak_bytes"] == r["value"] * 2**20
    assert got == PRINTED_WHISPER


def test_the_nlpdl_rows_are_the_printed_peaks():
    got = {}
    for r in _rows(CBPKU, HLMIAO):
        s = r["setup"]
        who = publisher(DOC["sources"][r["source"]]["url"])
        got[(who, s["model"], s["use_cache"])] = r["value"]
        assert (r["measured"], r["unit"]) == ("max_memory_allocated", "MiB")
        assert (s["mode"], s["precision"], s["micro_batch"], s["num_beams"]) == ("generate", "fp32", 1, 1)
        assert str(r["value"]) in r["notes"]
        assert r["peak_bytes"] == round(r["value"] * 2**20)
        # max_length is prompt plus new tokens: 50 (cby-pku) and 1,000 (huolanmiao)
        assert s["seq_len"] + s["max_new_tokens"] == (50 if who == "cby-pku" else 1000)
    assert got == PRINTED_NLPDL


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert re.search(r"/blob/[0-9a-f]{40}/", source["url"]), "every page pinned to a commit"
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-31"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-31"] == REPO / "calibration" / "public" / "heldout31.json"
    assert "--split held-out-31" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
