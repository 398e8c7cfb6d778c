"""The twenty-fifth held-out set (calibration/public/heldout25.json): 15 public rows from three pages no earlier split
read: Lightning Thunder's litgpt benchmark under torch.compile (Llama-2-13B cut to 2-20 layers on one H100 and under
FSDP on eight, issue #474; long-context FSDP runs with activation checkpointing on eight H100s, PR #1261) and TRL's
DPO quick start out of memory on an A100 80GB (issue #3168); every row sourced, the source's printed figure kept, and
what the source leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout25.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 25)))]
LAYERS = "lightning-thunder-issue-474-llama2-13b-layers"
LONG = "lightning-thunder-pr-1261-fsdp-long-context"
DPO = "trl-issue-3168-dpo-qwen2.5-oom"
#: issue #474, kiya00's table, inductor columns: (layers, world size) -> GB
PRINTED_474 = {(2, 1): 11.33, (4, 1): 18.35, (10, 1): 39.43, (20, 1): 74.56,
               (2, 8): 6.27, (4, 8): 9.95, (10, 8): 21.0, (20, 8): 39.41}
#: PR #1261, kiya00's table, inductor column: litgpt name -> (micro batch, GB or None for OOM, block_size)
PRINTED_1261 = {"Mistral-7B-v0.2": (3, 64.63, 32768), "longchat-13b-16k": (3, 48.59, 16384),
                "vicuna-7b-v1.5-16k": (5, 51.0, 16384), "CodeLlama-34b-hf": (1, 50.8, 16384),
                "Gemma-2-27b": (1, None, 8192), "Llama-3-70B": (1, None, 8192)}


def _rows(source):
    return [r for r in ROWS if r["source"] == source]


def test_three_pages_no_earlier_split_read():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 15
    assert sum(1 for r in ROWS if r.get("peak_bytes")) == 12
    assert sum(1 for r in ROWS if r["outcome"] == "oom") == 3
    assert set(DOC["sources"]) == {LAYERS, LONG, DPO}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    # neither publisher is new (Lightning-AI: litgpt in held-out-9 and the devset; huggingface: many splits)
    assert {publisher(u) for u in all_urls(DOC)} == {"lightning-ai", "huggingface"}


def test_the_layer_sweep_is_the_issues_inductor_columns():
    got = {}
    for r in _rows(LAYERS):
        s = r["setup"]
        got[(s["hf_config"]["num_hidden_layers"], s["world_size"])] = r
        assert (s["micro_batch"], s["seq_len"], s["grad_ckpt"], s["grad_accum"]) == (2, 4096, False, 1)
        assert (s["hf_config"]["hidden_size"], s["hf_config"]["intermediate_size"]) == (5120, 13824)
        assert (s.get("fsdp"), s.get("load_placement")) == (("full", "sharded") if s["world_size"] == 8
                                                            else (None, "gpu"))
    assert set(got) == set(PRINTED_474)
    for key, r in got.items():
        assert (r["value"], r["unit"], r["measured"], r["gpu"]) == (PRINTED_474[key], "GB", "max_memory_allocated",
                                                                    "H100-SXM-80GB")
        assert r["peak_bytes"] == round(PRINTED_474[key] * 10**9)
    # the transcription keeps the table's order: more layers never use less memory, and FSDP on 8 GPUs always
    # uses less than one GPU
    for layers in (2, 4, 10, 20):
        assert got[(layers, 8)]["value"] < got[(layers, 1)]["value"]
    values = [got[(n, 1)]["value"] for n in (2, 4, 10, 20)]
    assert values == sorted(values)


def test_the_long_context_rows_are_the_prs_inductor_column():
    got = {r["setup"]["model_name"].removesuffix(" (litgpt)"): r for r in _rows(LONG)}
    assert set(got) == set(PRINTED_1261)
    for name, (mb, gb, block) in PRINTED_1261.items():
        r, s = got[name], got[name]["setup"]
        assert (s["micro_batch"], s["seq_len"], s["hf_config"]["max_position_embeddings"]) == (mb, block, block)
        assert (s["grad_ckpt"], s["fsdp"], s["world_size"], s["grad_accum"]) == (True, "full", 8, 1)
        if gb is None:
            assert r["outcome"] == "oom" and "peak_bytes" not in r
        else:
            assert (r["outcome"], r["value"], r["unit"]) == ("ran", gb, "GB")


def test_every_thunder_row_is_the_scripts_pure_bf16_compiled_loop():
    for r in _rows(LAYERS) + _rows(LONG):
        s = r["setup"]
        # torch.optim.AdamW(fused=True): the fused in-place kernel (est77; was written foreach False)
        assert (s["precision"], s["optimizer"], s["model_impl"]) == ("bf16", "adamw-fused", "litgpt")
        assert "foreach" not in s
        assert (s["compiled"], s["compiled_loss"], s["loss"], s["loss_in_logits_dtype"]) == (True, False, "standard",
                                                                                             True)
        assert s["padding"] == "max_length"


def test_the_dpo_row_holds_a_full_reference_copy():
    (row,) = _rows(DPO)
    s = row["setup"]
    assert row["outcome"] == "oom" and row["gpu"] == "A100-SXM-80GB"
    assert (s["frozen_models"], s["frozen_bits"], s["precision"]) == (1, 32, "fp32")
    assert (s["micro_batch"], s["seq_len"]) == (16, 1024), "8 pairs, chosen and rejected concatenated"


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-25"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-25"] == REPO / "calibration" / "public" / "heldout25.json"
    assert "--split held-out-25" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
