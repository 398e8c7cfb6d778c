"""The thirty-fifth held-out set (calibration/public/heldout35.json): 32 public rows from three publishers no earlier
split cites, three more Stanford CS336 students' assignment-2 memory answers with the course's own model (the 2.7B on
an H100, the xl on a 96 GB RTX PRO 6000, four widths with the script's default feed-forward on an A100 80GB PCIe;
no-grad forward passes and AdamW training steps in fp32 and bf16 autocast); every row sourced, the source's printed figure kept, and
what the source leaves open recorded as unknown. Nothing here runs the estimator."""

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
DOC = json.loads((PUBLIC / "heldout35.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 35)))]
SZ = "cs336-shibukizero-2p7b-h100"
LY = "cs336-linyunlinyun-xl-rtxpro6000"
KZ = "cs336-kevinzhou-a100"
#: ShibukiZero's 1_1_6_memory/summary.md (GiB): (mode, precision, ctx) -> figure
PRINTED_SHIBUKIZERO = {("infer", "fp32", 128): 12.93, ("infer", "fp32", 256): 13.02, ("infer", "fp32", 512): 13.45,
                       ("train", "fp32", 128): 51.44, ("train", "fp32", 256): 51.44, ("train", "fp32", 512): 65.52,
                       ("infer", "amp-bf16", 128): 19.16, ("infer", "amp-bf16", 256): 19.18,
                       ("infer", "amp-bf16", 512): 19.41, ("train", "amp-bf16", 128): 51.44,
                       ("train", "amp-bf16", 256): 52.11, ("train", "amp-bf16", 512): 62.69}
#: LINYUNLinYun's experiments.md tables (GiB): (mode, precision, ctx) -> figure
PRINTED_LINYUN = {("infer", "fp32", 128): 12.91, ("infer", "fp32", 512): 13.44, ("infer", "fp32", 1024): 15.6,
                  ("infer", "fp32", 2048): 21.30, ("infer", "amp-bf16", 128): 19.14, ("infer", "amp-bf16", 512): 19.40,
                  ("infer", "amp-bf16", 1024): 20.63, ("infer", "amp-bf16", 2048): 25.35,
                  ("train", "fp32", 128): 63.13, ("train", "fp32", 512): 65.54, ("train", "amp-bf16", 128): 63.31,
                  ("train", "amp-bf16", 512): 63.72}
#: KevinZhou's writeup.md 'Peak GPU memory: ... GB' lines and 'Peak Mem (GB)' column (GiB):
#: (hidden, d_ff, precision, ctx) -> figure
PRINTED_KEVINZHOU = {(2560, 6848, "fp32", 128): 39.048, (2560, 6848, "amp-bf16", 128): 38.975,
                     (2560, 6848, "fp32", 512): 52.142, (2560, 6848, "amp-bf16", 512): 49.772,
                     (768, 2048, "fp32", 512): 4.25, (1024, 2752, "fp32", 512): 11.40, (1280, 3392, "fp32", 512): 22.37}


def _rows(*sources):
    return [r for r in ROWS if r["source"] in sources]


def test_three_publishers_no_earlier_split_cites_none_over_half():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 32
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 31, "oom": 1}
    assert all(r.get("peak_bytes") for r in ROWS if r["outcome"] == "ran")
    per_publisher = Counter(publisher(DOC["sources"][r["source"]]["url"]) for r in ROWS)
    assert per_publisher == {"shibukizero": 12, "linyunlinyun": 12, "kevinzhou-cs336": 8}
    assert max(per_publisher.values()) * 2 < len(ROWS), per_publisher
    used_pages = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used_pages
    earlier_publishers = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("http")}
    assert not set(per_publisher) & earlier_publishers
    # stricter than the earlier splits' sources: no URL anywhere under calibration/public or bench names them
    assert not set(per_publisher) & publishers_cited_under_calibration_and_bench(35)


def test_eighteen_training_rows_every_field_read():
    train = [r for r in ROWS if r["setup"]["mode"] == "train"]
    assert len(train) == 18
    assert Counter(r["setup"]["mode"] for r in ROWS) == {"train": 18, "infer": 14}
    assert {r["setup"]["optimizer"] for r in train} == {"adamw"}
    names = {g["name"] for g in json.loads((REPO / "hardware" / "gpus.json").read_text(encoding="utf-8"))["gpus"]}
    assert {r["gpu"] for r in ROWS} == {"H100-SXM-80GB", "RTX-PRO-6000-Blackwell-96GB", "A100-PCIe-80GB"}
    # the 96 GB RTX PRO 6000 is not catalogued: its rows are peaks only (no verdict), none an OOM row
    assert {r["gpu"] for r in ROWS} - names == {"RTX-PRO-6000-Blackwell-96GB"}
    assert all(r["outcome"] == "ran" for r in _rows(LY))
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    for r in ROWS:
        _, unread = pa.estimate_input(r["setup"])
        assert not unread, (r["id"], unread)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_the_course_model_is_written_as_its_llama_shapes(row):
    s = row["setup"]
    cfg = s["hf_config"]
    shapes = {(2560, 10240, 32, 32)} if row["source"] != KZ else {
        (768, 2048, 12, 12), (1024, 2752, 24, 16), (1280, 3392, 36, 20), (2560, 6848, 32, 32)}
    assert (cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"], cfg["num_attention_heads"]) in shapes
    assert cfg["num_key_value_heads"] == cfg["num_attention_heads"]
    # the script's default feed-forward: the multiple of 64 nearest 8/3 d_model
    if row["source"] == KZ:
        assert cfg["intermediate_size"] == int((8 * cfg["hidden_size"] / 3) / 64 + 0.5) * 64
    assert (cfg["vocab_size"], cfg["tie_word_embeddings"], cfg["hidden_act"]) == (10000, False, "silu")
    assert cfg["max_position_embeddings"] == s["seq_len"]
    assert (s["attention"], s["padding"], s["micro_batch"]) == ("eager", "max_length", 4)
    assert s["python_ops"] == ["softmax", "silu"]
    assert "torch_version" not in s, "no source states its torch version"


def test_the_shibukizero_rows_are_the_summary_tables():
    got = {}
    for r in _rows(SZ):
        s = r["setup"]
        assert (r["measured"], r["unit"], r["gpu"]) == ("max_memory_allocated", "GiB", "H100-SXM-80GB")
        assert r["peak_bytes"] == round(r["value"] * 2**30)
        assert f"{r['value']:.2f} GiB" in r["notes"]
        if s["mode"] == "train":
            assert s["foreach"] is False   # the course AdamW loops over the parameters
        got[(s["mode"], s["precision"], s["seq_len"])] = r["value"]
    assert got == PRINTED_SHIBUKIZERO


def test_the_linyun_rows_are_the_experiments_tables():
    got = {}
    for r in _rows(LY):
        s = r["setup"]
        assert (r["measured"], r["unit"]) == ("max_memory_allocated", "GiB")
        assert f"| {r['value']}" in r["notes"]
        if s["mode"] == "train":
            assert s["foreach"] is True    # torch.optim.AdamW with its CUDA default
        got[(s["mode"], s["precision"], s["seq_len"])] = r["value"]
    assert got == PRINTED_LINYUN


def test_the_kevinzhou_rows_are_the_printed_lines_and_one_oom():
    got, oom = {}, []
    for r in _rows(KZ):
        s = r["setup"]
        assert (r["gpu"], s["mode"], s["foreach"]) == ("A100-PCIe-80GB", "train", False)
        if r["outcome"] == "oom":
            oom.append((s["precision"], s["seq_len"]))
            continue
        assert (r["measured"], r["unit"]) == ("max_memory_allocated", "GiB")
        assert f"Peak GPU memory: {r['value']:.3f} GB" in r["notes"] or f"| {r['value']:.2f} |" in r["notes"]
        cfg = s["hf_config"]
        got[(cfg["hidden_size"], cfg["intermediate_size"], s["precision"], s["seq_len"])] = r["value"]
    assert got == PRINTED_KEVINZHOU
    assert oom == [("fp32", 2048)]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert re.search(r"/blob/[0-9a-f]{40}/", source["url"]), "every page pinned to a commit"
    assert all(re.search(r"/blob/[0-9a-f]{40}/", u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-35"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-35"] == REPO / "calibration" / "public" / "heldout35.json"
    assert "--split held-out-35" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
