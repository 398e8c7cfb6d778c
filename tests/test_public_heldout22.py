"""The twenty-second held-out set (calibration/public/heldout22.json): 13 public measured peaks, the CoRal project's
GPU-usage notes on its Whisper / wav2vec 2.0 configs (alexandrainst/coral at ba354c3) and torchtune's May 2024 README
table (pytorch/torchtune at 0217d44), every row sourced, the source's printed figure kept, and what the source leaves
open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout22.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 22)))]
CORAL = "coral-asr-config-gpu-notes"
TT = "torchtune-readme-may-2024"
#: the CoRal comments as the configs print them: config -> (checkpoint, GPU, '~N GiB')
CORAL_NOTES = {"whisper-xxsmall": ("whisper-tiny", "RTX-A4000-16GB", 2),
               "whisper-xsmall": ("whisper-base", "RTX-A4000-16GB", 3),
               "whisper-small": ("whisper-small", "RTX-A4000-16GB", 5),
               "whisper-medium": ("whisper-medium", "RTX-A4000-16GB", 15),
               "whisper-large": ("whisper-large-v3", "RTX-6000-Ada-48GB", 34),
               "wav2vec2-small": ("xls-r-300m", "RTX-A4000-16GB", 15)}
#: the torchtune table as the README prints it: (model, method, GPUs) -> 'Peak Memory per GPU (GB)'
TT_TABLE = {("Llama-2-7B", "qlora", 1): 12.3, ("Llama-2-7B", "lora", 1): 21.3, ("Llama-2-7B", "lora", 2): 16.2,
            ("Llama-2-7B", "full", 1): 24.1, ("Llama-2-7B", "full", 4): 24.1, ("Llama-2-70B", "lora", 8): 26.4,
            ("Llama-2-70B", "full", 8): 70.4}


def _tt_key(row):
    s = row["setup"]
    method = "qlora" if s.get("quant") else "lora" if "lora_r" in s else "full"
    return s["model"], method, s["world_size"]


def test_new_pages_one_new_publisher_and_torchtune_s_may_2024_table():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 13
    assert set(DOC["sources"]) == {CORAL, TT}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    earlier_publishers = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("https://")}
    assert "alexandrainst" not in earlier_publishers
    assert {publisher(u) for u in all_urls(DOC)} == {"alexandrainst", "pytorch"}
    # torchtune's README was read before at a later commit (devset: the Llama 3.1 table), never at 0217d44
    assert all("/0217d44c2e1e372b34628767745c1f6538086a81/" in u for u in all_urls(DOC) if "/torchtune/" in u)
    assert all("/ba354c350c04d9e09bfba0014af207505e51211e/" in u for u in all_urls(DOC) if "/coral/" in u)
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_every_coral_row_is_one_config_comment():
    coral = [r for r in ROWS if r["source"] == CORAL]
    assert len(coral) == len(CORAL_NOTES)
    for config, (checkpoint, gpu, value) in CORAL_NOTES.items():
        (row,) = [r for r in coral if r["id"].startswith(f"{CORAL}/{config}-{checkpoint}-")]
        assert (row["value"], row["unit"], row["gpu"]) == (value, "GiB", gpu)
        assert f"config/model/{config}.yaml" in row["notes"] and f"~{value} GiB" in row["notes"]
        s = row["setup"]
        assert (s["precision"], s["optimizer"], s["micro_batch"], s["grad_ckpt"]) == ("amp-bf16", "adamw", 8, True)
        assert s["padding"] == "dynamic" and s["world_size"] == 1 and "lora_r" not in s
        if config.startswith("whisper"):
            assert (s["seq_len"], s["target_len"], s["use_cache"]) == (1500, 64, False)
        else:   # 10 s of 16 kHz audio through a conv stack of stride 320
            assert s["seq_len"] == 500 and s["hf_config"]["architectures"] == ["Wav2Vec2ForCTC"]


def test_every_torchtune_row_is_one_cell_of_the_table():
    tt = [r for r in ROWS if r["source"] == TT]
    got = {_tt_key(r): r for r in tt}
    assert len(got) == len(tt) == len(TT_TABLE)
    for key, row in got.items():
        s = row["setup"]
        assert row["value"] == TT_TABLE[key] and row["unit"] == "GB"
        assert f"{TT_TABLE[key]} GB |" in row["notes"]
        assert (s["model_impl"], s["precision"], s["micro_batch"], s["padding"]) == ("torchtune", "bf16", 4,
                                                                                     "max_length")
        assert s["seq_len"] == (4096 if key[0] == "Llama-2-70B" else 2048)
        assert (s.get("fsdp") == "full") == (key[2] > 1)
        if key[1] == "full" and key[2] in (1, 8):   # the table's '*': bitsandbytes PagedAdamW
            assert s["optimizer"] == "paged-adamw"
        assert s.get("compiled", False) == (key[1] == "qlora")   # '**': torch compile
    assert {r["gpu"] for r in tt} == {"RTX-4090-24GB", "A100-SXM-80GB"}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"] and source["date"]
    for url in [source["url"], *source["also"]]:
        assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-22" and row["outcome"] == "ran"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["peak_bytes"] == round(row["value"] * {"GiB": 2**30, "GB": 10**9}[row["unit"]])
    setup = row["setup"]
    assert setup["torch_version"] and setup["mode"] == "train"
    assert setup["micro_batch"] and setup["seq_len"] and setup["world_size"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-22"] == REPO / "calibration" / "public" / "heldout22.json"
    assert "--split held-out-22" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
