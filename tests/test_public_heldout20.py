"""The twentieth held-out set (calibration/public/heldout20.json): 20 public measured peaks from three publishers no
earlier set uses (liucongg/ChatGLM-Finetuning's A40 tables, Datawhale's self-llm tutorials, Facico/Chinese-Vicuna's
notes), every row sourced, the source's printed figure kept, and what the source leaves open recorded as unknown.
Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout20.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 20)))]
UNIT = {"GiB": 2**30, "MiB": 2**20, "GB": 10**9}
CG_LORA = "chatglm-finetuning-lora-table"
CG_FULL = "chatglm-finetuning-full-table"
VICUNA = "chinese-vicuna-notes"
SELF_LLM = {"self-llm-phi4-lora", "self-llm-qwen3-30b-a3b-lora", "self-llm-qwen3-1.7b-full", "self-llm-minicpm-2b"}


def _by_source(key):
    return {r["id"].split("/")[1]: r for r in ROWS if r["source"] == key}


def _model(row):
    return row["setup"].get("model") or row["setup"]["model_name"]


def test_rows_from_publishers_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 20
    assert set(DOC["sources"]) == {CG_LORA, CG_FULL, VICUNA, *SELF_LLM}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    mine = {publisher(u) for u in all_urls(DOC)}
    assert mine == {"liucongg", "datawhalechina", "facico"}
    earlier = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("https://")}
    assert not mine & earlier
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_the_mix_spans_zero_stages_offload_quantization_and_families():
    assert {_model(r) for r in ROWS} == {"ChatGLM-6B", "ChatGLM2-6B", "Phi-4", "Qwen3-30B-A3B", "Qwen3-1.7B",
                                        "MiniCPM-2B", "LLaMA-7B", "LLaMA-13B"}
    assert {r["setup"].get("zero_stage", 0) for r in ROWS} == {0, 2, 3}
    assert sum(1 for r in ROWS if r["setup"].get("offload_optimizer") == "cpu") == 4
    assert sum(1 for r in ROWS if "lora_r" not in r["setup"]) == 5   # full fine-tunes
    assert {r["setup"].get("quant") for r in ROWS} == {None, "8bit"}
    assert {r["setup"]["world_size"] for r in ROWS} == {1, 4}
    assert {r["gpu"] for r in ROWS} == {"A40-48GB", "A100-SXM-80GB", "H20-96GB", "RTX-3090-24GB", "RTX-4090-24GB",
                                        "RTX-2080-Ti-11GB"}
    assert {r["measured"] for r in ROWS} == {"nvidia-smi"} and {r["outcome"] for r in ROWS} == {"ran"}


def test_chatglm_tables_keep_every_row_with_its_checkpointing_and_gpu_count():
    lora = _by_source(CG_LORA)
    table = {(_model(r), r["setup"]["grad_ckpt"], r["setup"]["world_size"]): r["value"] for r in lora.values()}
    assert table == {("ChatGLM-6B", True, 1): 20, ("ChatGLM-6B", False, 1): 45, ("ChatGLM-6B", True, 4): 20,
                     ("ChatGLM-6B", False, 4): 45, ("ChatGLM2-6B", True, 1): 20, ("ChatGLM2-6B", False, 1): 43,
                     ("ChatGLM2-6B", True, 4): 19, ("ChatGLM2-6B", False, 4): 42}
    full = _by_source(CG_FULL)
    got = {(_model(r), r["setup"].get("offload_params")): r["value"] for r in full.values()}
    assert got == {("ChatGLM-6B", "cpu"): 33, ("ChatGLM2-6B", None): 44, ("ChatGLM2-6B", "cpu"): 26}
    for r in [*lora.values(), *full.values()]:
        s = r["setup"]
        assert (r["gpu"], r["unit"], s["precision"], s["seq_len"], s["micro_batch"], s["attention"]) == (
            "A40-48GB", "GiB", "fp16", 1560, 1, "eager")
        assert s["zero_stage"] == (2 if "lora_r" in s else 3) and s["torch_version"] == "1.13.1+cu116"  # est71: requirements.txt pins the cu116 build
        assert f"| {r['value']}G |" in r["notes"]
    # ChatGLM-6B: LoRA on the fused query_key_value only; ChatGLM2: every linear
    assert {tuple(r["setup"]["lora_targets"]) for r in lora.values() if _model(r) == "ChatGLM-6B"} == {
        ("query_key_value",)}
    assert all(len(r["setup"]["lora_targets"]) == 7 for r in lora.values() if _model(r) == "ChatGLM2-6B")


def test_self_llm_rows_keep_what_the_scripts_run():
    (phi4,) = _by_source("self-llm-phi4-lora").values()
    # Phi-4's fused qkv_proj / gate_up_proj: only o_proj and down_proj of the seven names match a module
    assert phi4["setup"]["lora_targets"] == ["o_proj", "down_proj"] and phi4["value"] == 33
    assert any("peft matches whole name suffixes" in u for u in phi4["unknown"])
    (moe,) = _by_source("self-llm-qwen3-30b-a3b-lora").values()
    assert (moe["gpu"], moe["value"], moe["setup"]["micro_batch"], moe["setup"]["lora_r"]) == ("H20-96GB", 85, 16, 8)
    (full,) = _by_source("self-llm-qwen3-1.7b-full").values()
    assert (full["value"], full["setup"]["seq_len"], full["setup"]["precision"]) == (32, 2048, "bf16")
    assert "lora_r" not in full["setup"]
    mc = _by_source("self-llm-minicpm-2b")
    assert sorted(r["value"] for r in mc.values()) == [14, 22]
    for r in mc.values():
        s = r["setup"]
        assert (s["zero_stage"], s["offload_optimizer"], s["grad_ckpt"], s["micro_batch"]) == (2, "cpu", False, 4)
        assert r["gpu"] == "RTX-3090-24GB" and s["hf_config"]["hidden_size"] == 2304


def test_chinese_vicuna_rows_are_int8_and_fp16_lora_padded_to_the_cutoff():
    cv = _by_source(VICUNA)
    got = {(_model(r), r["setup"].get("quant"), r["setup"]["seq_len"], r["gpu"]): r["value"] for r in cv.values()}
    assert got == {("LLaMA-7B", "8bit", 257, "RTX-2080-Ti-11GB"): 9, ("LLaMA-7B", "8bit", 2049, "RTX-4090-24GB"): 20,
                   ("LLaMA-13B", "8bit", 2049, "RTX-3090-24GB"): 24, ("LLaMA-7B", None, 513, "RTX-4090-24GB"): 20}
    for r in cv.values():
        s = r["setup"]
        assert (s["padding"], s["lora_r"], s["lora_targets"], s["precision"]) == (
            "max_length", 8, ["q_proj", "v_proj"], "amp-fp16")
        assert s["grad_ckpt"] is (s.get("quant") == "8bit")   # prepare_model_for_int8_training enables it


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"] and source["date"]
    for url in [source["url"], *source["also"]]:
        if "github.com" in url and "/blob/" in url:
            assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-20"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    assert any("nvidia-smi" in u or "GiB" in u for u in row["unknown"])
    setup = row["setup"]
    assert setup["torch_version"] and setup["transformers_version"] and setup["mode"] == "train"
    assert setup["micro_batch"] and setup["seq_len"] and setup["world_size"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-20"] == REPO / "calibration" / "public" / "heldout20.json"
    assert "--split held-out-20" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
