"""The twenty-seventh held-out set (calibration/public/heldout27.json): 7 public rows from one repository no earlier
split read: IDRIS's Democratizing-LLM-FT job logs (full fine-tuning of Qwen2.5-14B/32B/72B with FSDP2, fp32 shards and a
bf16 mixed-precision policy, 2 x 4,096 tokens per GPU on 64 GPUs, with and without torch.compile; 14B and 32B without
activation checkpointing on GB200s, 72B with every decoder layer checkpointed on H100s and A100s); every row sourced,
the log's printed figure kept, and what the source leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout27.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 27)))]
IDRIS = "idris-democratizing-llm-ft-fsdp2-qwen2.5"
PIN = "932e1bd79f9c68d127bfc9c2a6dfcc90b53207d7"
#: the logs' 'MaxMemory for GPU:0 ... GBytes' (max_memory_allocated / 2**30): (GPU, model, checkpointing, compiled)
PRINTED = {
    ("GB200-186GB", "Qwen2.5-14B", False, True): 82.14638185501099,
    ("GB200-186GB", "Qwen2.5-14B", False, False): 107.42760133743286,
    ("GB200-186GB", "Qwen2.5-32B", False, True): 148.18441438674927,
    ("H100-SXM-80GB", "72B", True, True): 42.486295223236084,
    ("H100-SXM-80GB", "72B", True, False): 43.51562261581421,
    ("A100-SXM-80GB", "72B", True, False): 43.34417390823364,
    ("A100-SXM-80GB", "72B", True, True): 45.90084505081177,
}


def _key(row):
    s = row["setup"]
    model = s.get("model") or ("72B" if s["hf_config"]["num_hidden_layers"] == 80 else "?")
    return row["gpu"], model, s["grad_ckpt"], s["compiled"]


def test_one_repository_no_earlier_split_read():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 7
    assert all(r.get("peak_bytes") and r["outcome"] == "ran" for r in ROWS)
    assert set(DOC["sources"]) == {IDRIS}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    # a publisher no earlier split read
    assert {publisher(u) for u in all_urls(DOC)} == {"idriscnrs"}
    assert not {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("http")} & {"idriscnrs"}
    # every address is pinned to the commit the rows were read at
    assert all(PIN in u for u in all_urls(DOC))


def test_the_rows_are_the_logs_figures_in_gib():
    got = {_key(r): r for r in ROWS}
    assert set(got) == set(PRINTED)
    for key, r in got.items():
        assert (r["value"], r["unit"], r["measured"]) == (PRINTED[key], "GiB", "max_memory_allocated")
        assert r["peak_bytes"] == round(PRINTED[key] * 2**30)
        assert f"MaxMemory for GPU:0 {PRINTED[key]} GBytes" in r["notes"]
    # compile lowers the peak of the unchecked 14B run on the same machine by 25 GiB, as printed
    assert got[("GB200-186GB", "Qwen2.5-14B", False, False)]["value"] - got[
        ("GB200-186GB", "Qwen2.5-14B", False, True)]["value"] > 25


def test_every_row_is_the_same_fsdp2_job_at_2_x_4096_tokens_on_64_gpus():
    for r in ROWS:
        s = r["setup"]
        assert (s["fsdp"], s["fsdp_version"], s["world_size"], s["micro_batch"], s["grad_accum"]) == (
            "full", 2, 64, 2, 1)
        assert (s["seq_len"], s["padding"], s["precision"], s["optimizer"]) == (4096, "max_length", "amp-bf16", "adamw")
        assert (s["loss"], s["loss_in_logits_dtype"], s["compiled_loss"], s["use_cache"]) == (
            "standard", True, False, False)
        assert s["devices_per_node"] == (8 if r["gpu"] == "A100-SXM-80GB" else 4)
        # the 72B rows checkpoint every layer; the GB200 rows none (partial ratios are left out)
        assert s["grad_ckpt"] == (r["gpu"] != "GB200-186GB")
    cfg = next(r["setup"]["hf_config"] for r in ROWS if "hf_config" in r["setup"])
    # the log's parameter count of Qwen2.5-72B-Instruct follows from the inline config (q/k/v biases, untied head)
    h, i, n, kv = cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"], cfg["num_key_value_heads"]
    kv_dim = kv * h // cfg["num_attention_heads"]
    layer = 2 * h * h + h + 2 * (h * kv_dim + kv_dim) + 3 * h * i + 2 * h
    assert n * layer + 2 * cfg["vocab_size"] * h + h == 72706203648


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-27"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]
    assert "logs/out/" in row["notes"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-27"] == REPO / "calibration" / "public" / "heldout27.json"
    assert "--split held-out-27" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
