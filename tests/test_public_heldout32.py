"""The thirty-second held-out set (calibration/public/heldout32.json): 20 public rows from three publishers no earlier
split read: the ml-engineering book's GPU-upgrade benchmark (eight training rows: Llama-3.1-8B with DeepSpeed on 8
H200s, ZeRO-3 + CPU-offloaded optimizer + checkpointing + Liger-Kernel from 8K to 256K tokens, ZeRO-2 at 8K with and
without Liger-Kernel), an EE 5453 KV-cache assignment (distilgpt2 fp16 decoding) and a Columbia HPML project (five
training rows: DistilBERT sequence-classification LoRA in fp32); every row sourced, the source's printed figure kept,
and what the source leaves open recorded as unknown. Nothing here runs the estimator."""

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
DOC = json.loads((PUBLIC / "heldout32.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 32)))]
MLE = "ml-engineering-when-to-upgrade-gpus-llama31-8b-8xh200"
JD = "ee5453-kv-cache-assignment-distilgpt2-rtx3060ti"
HP = "hpml-project-distilbert-lora-topr-imdb"
#: the H200 column of ml-engineering's 'Peak memory (max_memory_reserved, worst rank)' table (GiB) by sequence length,
#: and the ZeRO-2 8K pair '99 -> 80GiB' by Liger-Kernel off / on
PRINTED_ZERO3 = {8192: 16.3, 32768: 25.8, 65536: 37.5, 131072: 66.5, 196608: 95.7, 262144: 124.5}
PRINTED_ZERO2 = {False: 99, True: 80}
#: logs.csv's peak_mem_mb (MiB): (use_cache, batch, prompt_len) -> figure
PRINTED_KV = {(True, 1, 64): 183.15576171875, (False, 1, 64): 179.79833984375, (True, 2, 64): 192.6767578125,
              (True, 4, 64): 212.611328125, (True, 1, 32): 180.92529296875, (True, 1, 128): 185.71044921875,
              (True, 1, 256): 192.72412109375}
#: epoch_peak_memory.csv (bytes) of graph/imdb/r{rank}/topr0.1
PRINTED_LORA = {4: 1448522240, 8: 1462956544, 16: 1467445760, 64: 1497002496, 128: 1541042688}


def _rows(*sources):
    return [r for r in ROWS if r["source"] in sources]


def test_three_publishers_no_earlier_split_read_none_over_half():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 20
    assert all(r["outcome"] == "ran" and r.get("peak_bytes") for r in ROWS)
    per_publisher = Counter(publisher(DOC["sources"][r["source"]]["url"]) for r in ROWS)
    assert per_publisher == {"stas00": 8, "josedavp": 7, "asb1127": 5}
    assert max(per_publisher.values()) * 2 < len(ROWS), per_publisher
    used_pages = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used_pages
    earlier_publishers = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("http")}
    assert not set(per_publisher) & earlier_publishers
    # stricter than the earlier splits' sources: no URL anywhere under calibration/public or bench names them
    assert not set(per_publisher) & publishers_cited_under_calibration_and_bench(32)


def test_thirteen_training_rows_and_nine_rows_torch_preflight_can_be_asked_about():
    train = [r for r in ROWS if r["setup"]["mode"] == "train"]
    assert len(train) == 13
    assert all(r["setup"]["optimizer"] == "adamw" for r in train)
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    expressible = [r for r in ROWS if pa.tp_expressible(r["setup"])]
    causal = [r for r in expressible if r["setup"].get("model") == "Llama-3.1-8B"
              or r["setup"].get("hf_config", {}).get("architectures") == ["GPT2LMHeadModel"]]
    assert len(causal) == len(expressible) == 9
    assert Counter(r["setup"]["mode"] for r in causal) == {"generate": 7, "train": 2}


def test_the_ml_engineering_rows_are_the_h200_table_and_the_zero2_pair():
    zero3, zero2 = {}, {}
    for r in _rows(MLE):
        s = r["setup"]
        assert (r["measured"], r["unit"], r["gpu"]) == ("memory_reserved", "GiB", "H200-141GB")
        assert r["peak_bytes"] == round(r["value"] * 2**30)
        assert (s["model"], s["mode"], s["precision"], s["micro_batch"], s["world_size"], s["attention"]) == (
            "Llama-3.1-8B", "train", "bf16", 1, 8, "flash")
        assert (s["torch_version"], s["deepspeed_version"], s["transformers_version"]) == ("2.13.0", "0.19.2",
                                                                                           "5.14.1")
        assert s["zero_client_optimizer"] is False and s["padding"] == "max_length"
        if s["zero_stage"] == 3:
            assert (s["offload_optimizer"], s["grad_ckpt"], s["liger_kernels"], s["loss"]) == ("cpu", True, True,
                                                                                              "fused")
            assert f"| {r['value']} |" in r["notes"]
            zero3[s["seq_len"]] = r["value"]
        else:
            assert s["zero_stage"] == 2 and s["seq_len"] == 8192 and not s["grad_ckpt"]
            assert "offload_optimizer" not in s
            liger = bool(s.get("liger_kernels"))
            assert s["loss"] == ("fused" if liger else "standard")
            zero2[liger] = r["value"]
    assert zero3 == PRINTED_ZERO3
    assert zero2 == PRINTED_ZERO2
    # as printed: the reserved peak grows with the sequence; Liger-Kernel lowers the ZeRO-2 peak
    assert list(zero3.values()) == sorted(zero3.values()) and zero2[True] < zero2[False]


def test_the_kv_cache_rows_are_the_logged_peaks():
    got = {}
    for r in _rows(JD):
        s = r["setup"]
        assert (r["measured"], r["unit"], r["gpu"]) == ("max_memory_allocated", "MiB", "RTX-3060-12GB")
        assert r["peak_bytes"] == round(r["value"] * 2**20)
        assert (s["mode"], s["precision"], s["max_new_tokens"], s["model_name"]) == ("generate", "fp16", 1,
                                                                                     "distilgpt2")
        assert s["hf_config"]["n_layer"] == 6 and s["hf_config"]["n_embd"] == 768
        prompt = s["seq_len"] - 127   # the last of 128 one-token generate calls on the growing sequence
        assert f",{int(s['use_cache'])},{s['micro_batch']},{prompt},128,...,{r['value']}'" in r["notes"]
        got[(s["use_cache"], s["micro_batch"], prompt)] = r["value"]
    assert got == PRINTED_KV


def test_the_hpml_rows_are_the_epoch_peaks_in_bytes():
    got = {}
    for r in _rows(HP):
        s = r["setup"]
        assert (r["measured"], r["unit"]) == ("max_memory_allocated", "MB")
        assert (s["model"], s["task"], s["precision"], s["micro_batch"], s["seq_len"], s["padding"]) == (
            "DistilBERT-base-uncased", "sequence-classification", "fp32", 32, 128, "max_length")
        assert s["lora_targets"] == ["q_lin", "k_lin", "v_lin"] and s["lora_dropout"] == 0.1
        assert f"'1,{r['peak_bytes']}'" in r["notes"] and f"r{s['lora_r']}/topr0.1" in r["notes"]
        got[s["lora_r"]] = r["peak_bytes"]
    assert got == PRINTED_LORA


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert re.search(r"/blob/[0-9a-f]{40}/", source["url"]), "every page pinned to a commit"
    assert all(re.search(r"/blob/[0-9a-f]{40}/", u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-32"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-32"] == REPO / "calibration" / "public" / "heldout32.json"
    assert "--split held-out-32" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
