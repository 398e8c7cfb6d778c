"""The twenty-third held-out set (calibration/public/heldout23.json): 17 public rows from four pages no earlier split
read: Mistral-7B FlashAttention-2 generation (transformers PR #26464), BERT's LM head under eager and SDPA attention
(transformers PR #28802), FLAN-T5-XL / XXL ZeRO-3 runs out of memory on V100s (Philipp Schmid's DeepSpeed notebook) and
MiniCPM-2B full / LoRA fine-tunes under ZeRO-3 with offload (OpenBMB/MiniCPM's finetune README); every row sourced, the
source's printed figure kept, and what the source leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout23.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 23)))]
MISTRAL = "transformers-mistral-fa2-pr-26464"
BERT = "transformers-bert-sdpa-pr-28802"
FLANT5 = "philschmid-flan-t5-deepspeed-notebook"
MINICPM = "minicpm-finetune-readme"
#: PR #26464's "HF transformers + FA-2" results: (context, batch) -> 'Max allocated memory' in bytes
MISTRAL_PRINTED = {(12, 1): 15218032640, (11000, 1): 18673463808, (11000, 2): 22320273408,
                   (11000, 4): 29610738688}
#: PR #28802's training table: (batch, seq_len, attention) -> peak mem (MB)
BERT_PRINTED = {(1, 256, "eager"): 1128.190, (1, 256, "sdpa"): 1065.286, (1, 512, "eager"): 1345.791,
                (1, 512, "sdpa"): 1093.933, (2, 256, "eager"): 1175.685, (2, 256, "sdpa"): 1093.933,
                (2, 512, "eager"): 2123.874, (2, 512, "sdpa"): 1370.097}
#: the FLAN-T5 notebook's 'OOM' rows: (model, DS offload, GPUs)
FLANT5_OOM = {("Flan-T5-XL", False, 4), ("Flan-T5-XXL", True, 4), ("Flan-T5-XXL", True, 8)}
#: MiniCPM's README at a250c20: (method, GPUs) -> MiB per GPU
MINICPM_PRINTED = {("full", 4): 30245, ("lora", 1): 10619}


def _from(source):
    return [r for r in ROWS if r["source"] == source]


def test_new_pages_of_publishers_earlier_splits_read():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 17
    assert sum(1 for r in ROWS if r.get("peak_bytes")) == 14
    assert set(DOC["sources"]) == {MISTRAL, BERT, FLANT5, MINICPM}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    # no publisher is new (transformers' SDPA pages: held-out-4/5/7, philschmid: held-out-12, OpenBMB's ToolBench:
    # held-out-17); every page is
    earlier_publishers = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("https://")}
    assert {publisher(u) for u in all_urls(DOC)} == {"huggingface", "philschmid", "openbmb"}
    assert {"huggingface", "philschmid", "openbmb"} <= earlier_publishers
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)
    # the repository pages are pinned to the commit the figures were read at
    assert all("/395ca34fde276fb26f54e0aece086155566caf6d/" in u for u in all_urls(DOC) if "/philschmid/" in u)
    assert all("/a250c200ed41f485611a23ed74d35209075b55a5/" in u for u in all_urls(DOC) if "/MiniCPM/" in u)


def test_every_mistral_row_is_one_printed_figure():
    rows = _from(MISTRAL)
    got = {(r["setup"]["seq_len"], r["setup"]["micro_batch"]): r for r in rows}
    assert len(got) == len(rows) == len(MISTRAL_PRINTED)
    for key, row in got.items():
        assert row["peak_bytes"] == MISTRAL_PRINTED[key]
        assert f"Max allocated memory: {MISTRAL_PRINTED[key]}'" in row["notes"]
        s = row["setup"]
        assert (s["mode"], s["model"], s["precision"], s["attention"]) == ("generate", "Mistral-7B-v0.1", "fp16",
                                                                            "flash")
        assert s["max_new_tokens"] == 512 and row["measured"] == "max_memory_allocated"


def test_every_bert_row_is_one_cell_of_the_pr_table():
    rows = _from(BERT)
    got = {(r["setup"]["micro_batch"], r["setup"]["seq_len"], r["setup"]["attention"]): r for r in rows}
    assert len(got) == len(rows) == len(BERT_PRINTED)
    for key, row in got.items():
        assert (row["value"], row["unit"], row["gpu"]) == (BERT_PRINTED[key], "MB", "A100-SXM-80GB")
        assert f"{BERT_PRINTED[key]:.3f}" in row["notes"]
        s = row["setup"]
        # fxmarty's benchmark without --use-half (est49: the PR names no flag): fp32 weights, no optimizer
        # step, the logits' sum as the loss (held-out-4's encoding)
        assert (s["precision"], s["optimizer"], s["loss"], s["keeps_outputs"]) == ("fp32", "sgd", "logits", True)
        assert any("use-half" in u for u in row["unknown"])


def test_every_flan_t5_row_is_an_oom_of_the_notebook_table():
    rows = _from(FLANT5)
    got = {(r["setup"]["model"], r["setup"].get("offload_params") == "cpu", r["setup"]["world_size"]) for r in rows}
    assert got == FLANT5_OOM and len(rows) == len(FLANT5_OOM)
    for row in rows:
        s = row["setup"]
        assert row["outcome"] == "oom" and "peak_bytes" not in row and row["gpu"] == "V100-SXM2-16GB"
        assert (s["precision"], s["zero_stage"], s["micro_batch"], s["grad_ckpt"]) == ("fp32", 3, 1, True)
        assert (s["seq_len"], s["target_len"]) == (512, 129)
        assert "| OOM | fp32 |" in row["notes"]


def test_every_minicpm_row_is_one_readme_figure():
    rows = _from(MINICPM)
    got = {("lora" if "lora_r" in r["setup"] else "full", r["setup"]["world_size"]): r for r in rows}
    assert len(got) == len(rows) == len(MINICPM_PRINTED)
    for key, row in got.items():
        assert (row["value"], row["unit"], row["measured"]) == (MINICPM_PRINTED[key], "MiB", "nvidia-smi")
        assert f"{MINICPM_PRINTED[key]}MiB" in row["notes"]
        s = row["setup"]
        assert (s["zero_stage"], s["offload_params"], s["offload_optimizer"]) == (3, "cpu", "cpu")
        assert (s["micro_batch"], s["seq_len"], s["padding"]) == (1, 512, "max_length")
    assert got[("lora", 1)]["setup"]["lora_targets"] == ["q_proj", "v_proj"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"] and source["date"]
    for url in [source["url"], *source["also"]]:
        assert "/pull/" in url or len(url.split("/blob/")[1].split("/")[0]) == 40, "a PR or pinned to a commit"
    assert row["split"] == "held-out-23" and row["outcome"] in ("ran", "oom")
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * {"MB": 10**6, "GB": 10**9, "MiB": 2**20}[row["unit"]])
    setup = row["setup"]
    assert setup["torch_version"] and setup["mode"] in ("train", "generate")
    assert setup["micro_batch"] and setup["seq_len"] and setup["world_size"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-23"] == REPO / "calibration" / "public" / "heldout23.json"
    assert "--split held-out-23" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
