"""The twenty-first held-out set (calibration/public/heldout21.json): 20 public measured peaks from the Qwen-1
repository's profiling table (QwenLM/Qwen README at e8e1596), every row sourced, the table's printed figure kept
(divided by the GPU count where the table gives a total over several GPUs), and what the source leaves open recorded
as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout21.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 21)))]
UNIT = {"GiB": 2**30, "MiB": 2**20, "GB": 10**9}
LORA = "qwen1-readme-profiling-lora"
QLORA = "qwen1-readme-profiling-qlora"
FULL = "qwen1-readme-profiling-full"
#: the table as the README prints it: (size, method, GPUs, tokens) -> the figure in G
TABLE = {("1.8B", "lora", 1, 256): 6.7, ("1.8B", "lora", 1, 8192): 21.8, ("1.8B", "emb", 1, 256): 13.7,
         ("1.8B", "emb", 1, 8192): 27.7, ("1.8B", "qlora", 1, 8192): 15.8, ("1.8B", "full", 1, 256): 43.5,
         ("1.8B", "full", 1, 8192): 48.3, ("7B", "lora", 1, 256): 20.1, ("7B", "lora", 1, 2048): 23.8,
         ("7B", "lora", 1, 8192): 36.6, ("7B", "emb", 1, 256): 33.7, ("7B", "emb", 1, 8192): 48.5,
         ("7B", "qlora", 1, 256): 11.5, ("7B", "qlora", 1, 8192): 23.5, ("7B", "full", 2, 256): 139.2,
         ("14B", "lora", 1, 256): 34.6, ("14B", "lora", 1, 8192): 55.2, ("14B", "qlora", 1, 8192): 27.9,
         ("72B", "qlora", 1, 256): 61.4, ("72B", "lora", 4, 8192): 289.2}
HIDDEN = {"1.8B": 2048, "7B": 4096, "14B": 5120, "72B": 8192}


def _key(row):
    s = row["setup"]
    size = next(k for k, h in HIDDEN.items() if s["hf_config"]["hidden_size"] == h)
    method = ("qlora" if s.get("quant") else "emb" if s.get("trained_embeddings") else
              "lora" if "lora_r" in s else "full")
    return size, method, s["world_size"], s["seq_len"]


def test_a_new_page_and_one_publisher_whose_only_earlier_page_was_an_inference_benchmark():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 20
    assert set(DOC["sources"]) == {LORA, QLORA, FULL}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    mine = {publisher(u) for u in all_urls(DOC)}
    assert mine == {"qwenlm"}
    # QwenLM published one earlier page (held-out-11: the Qwen2.5 speed benchmark, generation rows); no earlier
    # set reads the QwenLM/Qwen repository
    earlier_qwen = {u for doc in EARLIER for u in all_urls(doc) if u.startswith("https://") and publisher(u) == "qwenlm"}
    assert earlier_qwen and all("/QwenLM/Qwen2.5/" in u for u in earlier_qwen)
    assert all("/QwenLM/Qwen/blob/e8e15962d897714944773cca57fa2e460a3655e8/" in u for u in all_urls(DOC))
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_every_row_is_one_cell_of_the_table_per_gpu():
    got = {_key(r): r for r in ROWS}
    assert set(got) == set(TABLE)
    for key, row in got.items():
        gpus = key[2]
        assert row["value"] == pytest.approx(TABLE[key] / gpus, abs=0.005)
        assert f"'{TABLE[key]}G'" in row["notes"]
        if gpus > 1:
            assert any(f"total over {gpus} GPUs" in u or f"total over the {gpus} GPUs" in u for u in row["unknown"])


def test_the_mix_spans_lora_tables_gptq_zero_stages_and_four_sizes():
    assert {r["setup"].get("zero_stage", 0) for r in ROWS} == {0, 2, 3}
    assert {r["setup"].get("quant") for r in ROWS} == {None, "4bit"}
    assert {r["setup"]["world_size"] for r in ROWS} == {1, 2, 4}
    assert {r["gpu"] for r in ROWS} == {"A100-SXM-80GB"}
    assert {r["measured"] for r in ROWS} == {"nvidia-smi"} and {r["outcome"] for r in ROWS} == {"ran"}
    assert sum(1 for r in ROWS if "lora_r" not in r["setup"]) == 3            # full fine-tunes
    assert sum(1 for r in ROWS if r["setup"].get("trained_embeddings") == "copy") == 4
    for r in ROWS:
        s = r["setup"]
        assert (s["padding"], s["micro_batch"], s["attention"], s["grad_ckpt"]) == ("max_length", 1, "flash", True)
        assert s["loss_in_logits_dtype"] is True and s["use_cache"] is False
        if "lora_r" in s:
            assert (s["lora_r"], s["lora_dropout"], len(s["lora_targets"])) == (64, 0.05, 7)
        if s.get("quant"):   # Q-LoRA: GPTQ Int4 chat model, ZeRO-2 fp16 on one GPU
            assert (s["precision"], s["zero_stage"], s["kbit_prepared"]) == ("fp16", 2, False)
            assert s["model_name"].endswith("-Chat-Int4")
        elif "lora_r" in s and s.get("zero_stage") != 3:
            assert (s["precision"], s["weights_bits"]) == ("amp-bf16", 16)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"] and source["date"]
    for url in [source["url"], *source["also"]]:
        assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-21"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    assert any("nvidia-smi" in u for u in row["unknown"])
    setup = row["setup"]
    assert setup["torch_version"] and setup["transformers_version"] and setup["mode"] == "train"
    assert setup["micro_batch"] and setup["seq_len"] and setup["world_size"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-21"] == REPO / "calibration" / "public" / "heldout21.json"
    assert "--split held-out-21" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
