"""The twenty-eighth held-out set (calibration/public/heldout28.json): 17 public rows from four pages no earlier split
read: ATorch's Llama-2-7B FSDP performance table (dlrover, 8 to 64 A100-80GB, full fine-tuning and LoRA) and three
Lightning Thunder pages with benchmark_litgpt.py peaks on 8 H100s (PR #940, issue #1176, PR #1156); every row sourced,
the source's printed figure kept, and what the source leaves open recorded as unknown. Nothing here runs the
estimator."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout28.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 28)))]
ATORCH = "atorch-llama2-fsdp-readme-70df7d5"
PR940 = "lightning-thunder-pr-940-fsdp2-llama2-7b"
ISSUE1176 = "lightning-thunder-issue-1176-stablecode-3b-fsdp"
PR1156 = "lightning-thunder-pr-1156-llama3-8b-fsdp2"
#: the README's FSDP rows at 70df7d5 (MiB): (GPUs, LoRA) -> 'Mem Max allocated(MB)'
PRINTED_ATORCH = {(8, True): 33338.1, (8, False): 39596.3, (16, True): 31695.5, (16, False): 34776.7,
                  (32, True): 30890.2, (32, False): 32366.8, (64, True): 30487.6, (64, False): 31161.9}
#: the Thunder pages (GB): (source, model_name, seq_len, fsdp, fsdp_version, compiled) -> figure
PRINTED_THUNDER = {
    (PR940, "Llama-2-7b-hf (litgpt)", 4096, "grad-op", 2, True): 40.21,
    (PR940, "Llama-2-7b-hf (litgpt)", 4096, "grad-op", 1, True): 40.21,
    (PR940, "Llama-2-7b-hf (litgpt)", 4096, "grad-op", 2, False): 47.45,
    (ISSUE1176, "stablecode-completion-alpha-3b (litgpt)", 16384, "grad-op", 2, True): 62.7,
    (ISSUE1176, "stablecode-completion-alpha-3b (litgpt)", 16384, "grad-op", 1, True): 62.97,
    (ISSUE1176, "stablecode-completion-alpha-3b (litgpt)", 8192, "grad-op", 2, True): 35.21,
    (ISSUE1176, "stablecode-completion-alpha-3b (litgpt)", 8192, "grad-op", 1, True): 35.24,
    (PR1156, "Llama-3-8B (litgpt)", 8192, "grad-op", 2, True): 72.61,
    (PR1156, "Llama-3-8B (litgpt)", 8192, "full", 2, True): 58.65,
}


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_four_pages_no_earlier_split_read_none_over_half():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 17
    assert all(r["outcome"] == "ran" and r.get("peak_bytes") for r in ROWS)
    assert set(DOC["sources"]) == {ATORCH, PR940, ISSUE1176, PR1156}
    per_source = Counter(r["source"] for r in ROWS)
    assert len(per_source) >= 3 and max(per_source.values()) * 2 < len(ROWS), per_source
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    # one new publisher (Ant Group's dlrover); Lightning-AI is read by the devset, held-out-9, -25 and -26
    assert {publisher(u) for u in all_urls(DOC)} == {"intelligent-machine-learning", "lightning-ai"}
    assert not any("idriscnrs" in u.lower() for u in all_urls(DOC))


def test_the_atorch_rows_are_the_readmes_fsdp_table():
    got = {}
    for r in _rows(ATORCH):
        s = r["setup"]
        got[(s["world_size"], s.get("lora_r") is not None)] = r
        assert (s["model"], s["micro_batch"], s["seq_len"], s["precision"], s["grad_ckpt"]) == (
            "Llama-2-7B", 4, 4096, "amp-bf16", True)
        assert (s["fsdp"], s["fsdp_version"], s["fsdp_wrap"], s["devices_per_node"]) == ("full", 1, "block", 8)
        assert (r["measured"], r["gpu"], r["unit"]) == ("max_memory_allocated", "A100-SXM-80GB", "MiB")
        if s.get("lora_r") is not None:
            assert (s["lora_r"], s["lora_targets"]) == (16, ["q_proj", "k_proj", "v_proj", "o_proj"])
    assert set(got) == set(PRINTED_ATORCH)
    for key, r in got.items():
        assert r["value"] == PRINTED_ATORCH[key] and r["peak_bytes"] == round(PRINTED_ATORCH[key] * 2**20)
        assert str(PRINTED_ATORCH[key]) in r["notes"], "the note quotes the README's row"
    # as printed: LoRA below full fine-tuning at every size, and both fall as more GPUs share the states
    for gpus in (8, 16, 32, 64):
        assert got[(gpus, True)]["value"] < got[(gpus, False)]["value"]
    for lora in (True, False):
        assert [got[(g, lora)]["value"] for g in (8, 16, 32, 64)] == sorted(
            (got[(g, lora)]["value"] for g in (8, 16, 32, 64)), reverse=True)


def test_the_thunder_rows_are_the_three_pages_cells():
    got = {}
    for source in (PR940, ISSUE1176, PR1156):
        for r in _rows(source):
            s = r["setup"]
            key = (source, s["model_name"], s["seq_len"], s["fsdp"], s["fsdp_version"], s["compiled"])
            assert key not in got
            got[key] = r
            assert (s["precision"], s["micro_batch"], s["world_size"], s["model_impl"], s["grad_ckpt"]) == (
                "bf16", 1, 8, "litgpt", False)
            assert s["fsdp_wrap"] == ("block" if s["fsdp_version"] == 2 else "module")
            assert s["hf_config"]["max_position_embeddings"] == s["seq_len"]
            assert (r["unit"], r["gpu"]) == ("GB", "H100-SXM-80GB")
    assert set(got) == set(PRINTED_THUNDER)
    for key, r in got.items():
        assert r["value"] == PRINTED_THUNDER[key] and r["peak_bytes"] == round(PRINTED_THUNDER[key] * 10**9)
    # stablecode's two lengths: the same model, the GPT-NeoX layout
    stable = [r["setup"]["hf_config"] for r in _rows(ISSUE1176)]
    assert {c["model_type"] for c in stable} == {"gpt_neox"} and {c["hidden_size"] for c in stable} == {2560}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-28"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-28"] == REPO / "calibration" / "public" / "heldout28.json"
    assert "--split held-out-28" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
