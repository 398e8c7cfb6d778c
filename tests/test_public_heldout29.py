"""The twenty-ninth held-out set (calibration/public/heldout29.json): 17 public rows from six pages no earlier split
read: Chinese-CLIP's FlashAttention table (CN-CLIP under DDP on 8 A100-80GB, with and without FlashAttention), four
LLMs-from-scratch READMEs with bf16 generation peaks, and DeepSpeed's Muon blog (Qwen2.5-3B AdamW ZeRO-2 on 8
A100-40GB); every row sourced, the source's printed figure kept, and what the source leaves open recorded as unknown.
Nothing here runs the estimator."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout29.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 29)))]
CNCLIP = "chinese-clip-flash-attention-7d661ef"
GQA = "llms-from-scratch-ch04-gqa-28c65cd"
MOE = "llms-from-scratch-ch04-moe-28c65cd"
LLAMA = "llms-from-scratch-ch05-llama32-28c65cd"
QWEN = "llms-from-scratch-ch05-qwen3-28c65cd"
MUON = "deepspeed-muon-blog-qwen25-3b"
#: the Chinese-CLIP memory table (GB per GPU): (model, FlashAttention) -> (per-GPU batch, figure)
PRINTED_CNCLIP = {("CN-CLIP ViT-B/16", False): (450, 80), ("CN-CLIP ViT-B/16", True): (450, 56),
                  ("CN-CLIP ViT-L/14", False): (128, 77), ("CN-CLIP ViT-L/14", True): (128, 50),
                  ("CN-CLIP ViT-L/14@336px", False): (40, 78), ("CN-CLIP ViT-L/14@336px", True): (40, 37),
                  ("CN-CLIP ViT-H/14", False): (64, 76), ("CN-CLIP ViT-H/14", True): (64, 57)}
#: the LLMs-from-scratch pages (GiB, max_memory_allocated / 1024**3): (source, model_type, key-value heads,
#: max_new_tokens, use_cache, attention, compiled) -> figure
PRINTED_GENERATION = {
    (GQA, "gpt2", 24, 32768, True, "eager", None): 1.54,       # gpt_with_kv_mha.py
    (GQA, "llama", 4, 32768, True, "eager", None): 0.63,       # gpt_with_kv_gqa.py --n_kv_groups 4
    (MOE, "llama", 16, 1024, True, "eager", None): 11.47,      # gpt_with_kv_ffn.py --hidden_dim 32768
    (MOE, "mixtral", 16, 1024, True, "eager", None): 11.48,    # gpt_with_kv_moe.py --num_experts 32
    (LLAMA, "llama", 8, 150, False, "eager", None): 2.91,      # Llama3Model
    (LLAMA, "llama", 8, 150, False, "sdpa", None): 2.91,       # Llama3ModelFast
    (QWEN, "qwen3", 8, 150, False, "eager", False): 1.49,
    (QWEN, "qwen3", 8, 150, False, "eager", True): 1.99,
}


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_six_pages_no_earlier_split_read_three_publishers_none_over_half():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 17
    assert all(r["outcome"] == "ran" and r.get("peak_bytes") for r in ROWS)
    assert set(DOC["sources"]) == {CNCLIP, GQA, MOE, LLAMA, QWEN, MUON}
    per_source = Counter(r["source"] for r in ROWS)
    assert len(per_source) >= 3 and max(per_source.values()) * 2 < len(ROWS), per_source
    per_publisher = Counter(publisher(DOC["sources"][r["source"]]["url"]) for r in ROWS)
    assert per_publisher == {"ofa-sys": 8, "rasbt": 8, "deepspeedai": 1}
    assert max(per_publisher.values()) * 2 < len(ROWS)
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    # the publishers no earlier split used at all, and those it shares with earlier splits (other pages)
    earlier_publishers = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("http")}
    assert "ofa-sys" not in earlier_publishers
    assert {"rasbt", "deepspeedai"} <= earlier_publishers
    assert not any("idriscnrs" in u.lower() or "lightning-thunder" in u.lower() for u in all_urls(DOC))


def test_at_least_five_rows_without_fsdp_lora_or_offload():
    """The rows torch-preflight can be asked about (bench/public_accuracy.py's tp_expressible)."""
    plain = [r for r in ROWS if not any(r["setup"].get(k) for k in
                                        ("fsdp", "lora_r", "quant", "offload_params", "offload_optimizer"))]
    assert len(plain) == 17
    assert sum(1 for r in plain if "hf_config" not in r["setup"] or r["setup"]["hf_config"]["model_type"] != "clip") == 9


def test_the_chinese_clip_rows_are_the_pages_memory_table():
    got = {}
    for r in _rows(CNCLIP):
        s = r["setup"]
        key = (s["model_name"], s["attention"] == "flash")
        assert key not in got
        got[key] = r
        assert (s["precision"], s["optimizer"], s["world_size"], s["seq_len"], s["grad_ckpt"]) == (
            "amp-fp16", "adamw", 8, 52, False)
        assert (r["measured"], r["gpu"], r["unit"]) == ("nvidia-smi", "A100-SXM-80GB", "GB")
        assert s["attention"] in ("flash", "eager") and s.get("torch_mha", False) == (s["attention"] == "eager")
        assert s["hf_config"]["model_type"] == "clip"
        assert s["hf_config"]["vision_config"]["image_size"] == s["image_size"]
    assert set(got) == set(PRINTED_CNCLIP)
    for key, r in got.items():
        batch, gb = PRINTED_CNCLIP[key]
        assert r["setup"]["micro_batch"] == batch
        assert r["value"] == gb and r["peak_bytes"] == gb * 10**9
        assert f"| {batch}*8 |" in r["notes"], "the note quotes the table's row"
    # as printed: FlashAttention lowers every model's figure
    for name in {k[0] for k in PRINTED_CNCLIP}:
        assert got[(name, True)]["value"] < got[(name, False)]["value"]
    # ViT-H/14 pairs with the large RoBERTa text tower, the others with the base one
    for (name, _), r in got.items():
        text = r["setup"]["hf_config"]["text_config"]
        assert (text["hidden_size"], text["num_hidden_layers"]) == ((1024, 24) if "ViT-H" in name else (768, 12))


def test_the_generation_rows_are_the_four_readmes_figures():
    got = {}
    for source in (GQA, MOE, LLAMA, QWEN):
        for r in _rows(source):
            s = r["setup"]
            cfg = s["hf_config"]
            kv = cfg.get("num_key_value_heads", cfg.get("n_head"))
            key = (source, cfg["model_type"], kv, s["max_new_tokens"], s["use_cache"], s["attention"],
                   s.get("compiled"))
            assert key not in got
            got[key] = r
            assert (s["mode"], s["precision"], s["micro_batch"], s["world_size"]) == ("generate", "bf16", 1, 1)
            assert (r["measured"], r["unit"], r["gpu"]) == ("max_memory_allocated", "GiB", "A100-SXM-80GB")
            assert r["peak_bytes"] == round(r["value"] * 2**30)
    assert {k: r["value"] for k, r in got.items()} == PRINTED_GENERATION
    moe = [r for r in _rows(MOE) if r["setup"]["hf_config"]["model_type"] == "mixtral"]
    assert len(moe) == 1 and moe[0]["value"] == 11.48
    assert moe[0]["setup"]["hf_config"]["num_local_experts"] == 32
    # the KV-cache runs: prompt 'Hello, I am' (4 tokens); the ch05 runs: no KV cache, 150 new tokens
    assert {r["setup"]["seq_len"] for s in (GQA, MOE) for r in _rows(s)} == {4}
    assert all(r["setup"]["use_cache"] is False for s in (LLAMA, QWEN) for r in _rows(s))


def test_the_muon_blogs_adamw_row():
    (r,) = _rows(MUON)
    s = r["setup"]
    assert (r["value"], r["unit"], r["gpu"], r["measured"]) == (34.5, "GiB", "A100-SXM-40GB", "nvidia-smi")
    assert (s["model"], s["precision"], s["optimizer"], s["zero_stage"], s["world_size"]) == (
        "Qwen2.5-3B", "bf16", "adamw", 2, 8)
    # 'batch size 32' is DeepSpeed's train_batch_size over 8 GPUs: 4 sequences per GPU of 2,048 padded tokens
    assert s["micro_batch"] * s["world_size"] * s["grad_accum"] == 32 and s["seq_len"] == 2048
    assert "34.5 GiB" in r["notes"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert "/blob/" in source["url"], "every page pinned to a commit"
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-29"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-29"] == REPO / "calibration" / "public" / "heldout29.json"
    assert "--split held-out-29" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
