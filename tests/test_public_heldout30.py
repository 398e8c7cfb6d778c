"""The thirtieth held-out set (calibration/public/heldout30.json): 17 public rows from three pages no earlier split
read: the Qwen3 documentation's speed benchmark (transformers bf16 generation on one H20), torchao's gpt-fast
generate.py benchmark lines (Llama-2-7B / Llama-3-8B in bf16 and fp32 on an A100-80GB) and LLMs-from-scratch's Gemma 3
270M page (bf16 generation on an A100); every row sourced, the source's printed figure kept, and what the source leaves
open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout30.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 30)))]
QWEN3 = "qwen3-speed-benchmark-transformers-h20"
AOGEN = "torchao-llama-generate-benchmarks-fdd8fe7"
GEMMA = "llms-from-scratch-ch05-gemma3-28c65cd"
#: the Qwen3 page's Transformers tables, BF16, GPU Num 1 (MiB): model -> (input length, figure); one row per model,
#: the input length cycling 1, 6144, 14336, 30720 in the page's model order
PRINTED_QWEN3 = {"Qwen3-0.6B": (1, 1394), "Qwen3-1.7B": (6144, 4213), "Qwen3-4B": (14336, 10012),
                 "Qwen3-8B": (30720, 20267), "Qwen3-14B": (1, 28402), "Qwen3-32B": (6144, 64583),
                 "Qwen3-30B-A3B": (14336, 59806)}
#: torchao benchmark_results.txt (peak_mem, 1e9-byte GB): (model, precision, --compile) -> figure
PRINTED_AO = {("Llama-2-7B", "bf16", True): 13.88, ("Llama-2-7B", "bf16", False): 13.64,
              ("Llama-2-7B", "fp32", False): 27.23, ("Llama-3-8B", "bf16", True): 16.43,
              ("Llama-3-8B", "bf16", False): 16.19, ("Llama-3-8B", "fp32", False): 32.34}
#: the Gemma 3 page's A100 rows (GiB): (KV cache, compiled) -> figure
PRINTED_GEMMA = {(False, False): 1.84, (False, True): 2.12, (True, False): 1.77, (True, True): 2.12}


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_three_pages_no_earlier_split_read_three_publishers_none_over_half():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 17
    assert all(r["outcome"] == "ran" and r.get("peak_bytes") for r in ROWS)
    assert set(DOC["sources"]) == {QWEN3, AOGEN, GEMMA}
    per_source = Counter(r["source"] for r in ROWS)
    assert per_source == {QWEN3: 7, AOGEN: 6, GEMMA: 4}
    assert max(per_source.values()) * 2 < len(ROWS), per_source
    per_publisher = Counter(publisher(DOC["sources"][r["source"]]["url"]) for r in ROWS)
    assert per_publisher == {"qwenlm": 7, "pytorch": 6, "rasbt": 4}
    assert max(per_publisher.values()) * 2 < len(ROWS)
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    # the publishers earlier splits read other pages of; no page of the Qwen2.5 benchmark held-out-11 read
    earlier_publishers = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("http")}
    assert {"qwenlm", "pytorch", "rasbt"} <= earlier_publishers
    assert not any("Qwen2.5" in u or "qwen.readthedocs" in u for u in all_urls(DOC))


def test_every_row_is_one_torch_preflight_can_be_asked_about():
    """No FSDP, LoRA, quantization or offload (bench/public_accuracy.py's tp_expressible), all causal LMs."""
    for r in ROWS:
        s = r["setup"]
        assert not any(s.get(k) for k in ("fsdp", "lora_r", "quant", "offload_params", "offload_optimizer"))
        assert s["mode"] == "generate" and s["precision"] in ("bf16", "fp32")
        cfg = s.get("hf_config")
        assert cfg is None or cfg["architectures"][0].endswith("ForCausalLM")


def test_the_qwen3_rows_are_the_pages_bf16_figures():
    got = {}
    for r in _rows(QWEN3):
        s = r["setup"]
        assert s["model"] not in got
        got[s["model"]] = r
        assert (r["measured"], r["unit"], r["gpu"]) == ("max_memory_allocated", "MiB", "H20-96GB")
        assert (s["precision"], s["micro_batch"], s["max_new_tokens"], s["attention"], s["world_size"]) == (
            "bf16", 1, 2048, "flash", 1)
        assert (s["torch_version"], s["transformers_version"]) == ("2.6.0", "4.51.3")
        assert r["peak_bytes"] == r["value"] * 2**20
        assert f"<td>{r['value']}</td>" in r["notes"], "the note quotes the table's cell"
    assert {m: (r["setup"]["seq_len"], r["value"]) for m, r in got.items()} == PRINTED_QWEN3
    # the rule fixed before scoring: the page's model order, input length cycling 1, 6144, 14336, 30720
    assert [r["setup"]["seq_len"] for r in _rows(QWEN3)] == [1, 6144, 14336, 30720, 1, 6144, 14336]


def test_the_torchao_rows_are_the_benchmark_lines():
    got = {}
    for r in _rows(AOGEN):
        s = r["setup"]
        key = (s["model"], s["precision"], s["compiled"])
        assert key not in got
        got[key] = r
        assert (r["measured"], r["unit"], r["gpu"]) == ("memory_reserved", "GB", "A100-SXM-80GB")
        assert (s["seq_len"], s["max_new_tokens"], s["micro_batch"], s["use_cache"]) == (6, 200, 1, True)
        assert r["peak_bytes"] == round(r["value"] * 10**9)
        assert f"peak_mem={r['value']:5.2f} GB" in r["notes"]
        assert ("--compile " in r["notes"]) == s["compiled"]
    assert {k: r["value"] for k, r in got.items()} == PRINTED_AO
    # as printed: fp32 holds about twice the bf16 weights
    for model in ("Llama-2-7B", "Llama-3-8B"):
        assert got[(model, "fp32", False)]["value"] > 1.9 * got[(model, "bf16", False)]["value"]


def test_the_gemma3_rows_are_the_pages_a100_figures():
    got = {}
    for r in _rows(GEMMA):
        s = r["setup"]
        key = (s["use_cache"], s["compiled"])
        assert key not in got
        got[key] = r
        assert (r["measured"], r["unit"], r["gpu"]) == ("max_memory_allocated", "GiB", "A100-SXM-80GB")
        cfg = s["hf_config"]
        assert (cfg["model_type"], cfg["hidden_size"], cfg["num_hidden_layers"], cfg["vocab_size"]) == (
            "gemma3_text", 640, 18, 262144)
        # est66 (in-sample): False, the f571b5e loader that produced the figures cloned the embedding into the head
        assert cfg["tie_word_embeddings"] is False
        assert r["peak_bytes"] == round(r["value"] * 2**30)
        assert "Nvidia A100 GPU" in r["notes"]
    assert {k: r["value"] for k, r in got.items()} == PRINTED_GEMMA


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert "/blob/" in source["url"], "every page pinned to a commit"
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-30"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-30"] == REPO / "calibration" / "public" / "heldout30.json"
    assert "--split held-out-30" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
