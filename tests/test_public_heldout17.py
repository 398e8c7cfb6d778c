"""The seventeenth held-out set (calibration/public/heldout17.json): public measured peaks and out-of-memory verdicts
from twelve publishers no earlier set uses, most rows not single-GPU LoRA of a decoder LLM (Swin ImageNet logs read
from torch.cuda.max_memory_allocated, a Flan-T5-large fine-tune, RoBERTa/DistilBERT classifiers, SimCSE, LLaVA under
ZeRO-2/ZeRO-3/FSDP, 32k and 64k long-context fine-tunes), every row sourced, the source's printed figure kept, and
what the source leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout17.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 17)))]
UNIT = {"GiB": 2**30, "MiB": 2**20, "GB": 10**9}
SWIN = "swin-transformer-training-logs"
ASP = "asp-flan-t5-large-ere"
STX = "simpletransformers-issue-480"
SIMCSE = "simcse-unsup-roberta-large-oom"
LLAVA = "llava-finetune-oom-issues"
LONGLORA = "longlora-sft-oom"
YARN = "yarn-64k-full-ft-oom"
STARCODER = "starcoder-8bit-lora-8k-oom"
ALPACA_LORA = "alpaca-lora-issue-121"
SLF = "simple-llm-finetuner-issue-7"
EPOCHRAFT = "epochraft-hf-fsdp-pr-7"
TOOLBENCH = "toolbench-issue-84"
#: decoder-only language models trained with an adapter on one GPU: the kind earlier sets already hold many of
SINGLE_GPU_DECODER_LORA = {"Llama-2-7B", "Llama-2-13B", "StarCoder"}


def _by_source(key):
    return {r["id"].split("/")[1]: r for r in ROWS if r["source"] == key}


def test_rows_from_publishers_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    assert 15 <= len(ROWS) <= 25
    assert set(DOC["sources"]) == {SWIN, ASP, STX, SIMCSE, LLAVA, LONGLORA, YARN, STARCODER, ALPACA_LORA, SLF,
                                  EPOCHRAFT, TOOLBENCH}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    mine = {publisher(u) for u in all_urls(DOC)}
    assert mine == {"microsoft", "lyutyuh", "thilinarajapakse", "princeton-nlp", "haotian-liu", "dvlab-research",
                    "jquesnelle", "bigcode-project", "tloen", "lxe", "iwiwi", "openbmb"}
    earlier = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("https://")}
    assert not mine & earlier
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_the_mix_is_not_dominated_by_single_gpu_decoder_lora():
    lora_one_gpu = [r for r in ROWS if r["setup"]["model"] in SINGLE_GPU_DECODER_LORA
                    and "lora_r" in r["setup"] and r["setup"]["world_size"] == 1]
    assert 2 * len(lora_one_gpu) < len(ROWS)
    models = {r["setup"]["model"] for r in ROWS}
    # vision, an encoder-decoder, encoders, a vision-language model and decoders
    assert {"Swin-small-patch4-window7-224", "Flan-T5-large", "RoBERTa-large", "LLaVA-1.5-13B"} <= models
    assert sum(1 for r in ROWS if r["outcome"] == "oom") >= 5
    assert {r["setup"].get("zero_stage") for r in ROWS} >= {2, 3}
    assert any(r["setup"].get("fsdp") == "full" for r in ROWS)
    # at least two long-context rows of 16k tokens or more, with FlashAttention
    long = [r for r in ROWS if r["setup"].get("seq_len", 0) >= 16384]
    assert len(long) >= 2 and all(r["setup"]["attention"] == "flash" for r in long)
    assert {r["setup"].get("world_size") for r in ROWS} >= {1, 2, 4, 8, 16}


def test_swin_rows_are_the_logs_allocator_peak_in_mib():
    sw = _by_source(SWIN)
    small = sw["swin-small-224-ampfp16-ddp4-b48"]
    tiny = sw["swin-tiny-224-ampfp16-ddp8-b128"]
    # 'mem 7785MB' / 'mem 14764MB' from main.py's max_memory_allocated() / (1024.0 * 1024.0)
    assert (small["value"], small["unit"], small["peak_bytes"]) == (7785, "MiB", 7785 * 2**20)
    assert (tiny["value"], tiny["unit"]) == (14764, "MiB")
    assert "mem 7785MB" in small["notes"] and "mem 14764MB" in tiny["notes"]
    for r in sw.values():
        assert r["measured"] == "max_memory_allocated"
        s = r["setup"]
        assert (s["image_size"], s["precision"], s["grad_ckpt"]) == (224, "amp-fp16", False)
    # the logs' steps per epoch ('[860/6672]', '[510/1251]') are ImageNet-1k's 1,281,167 images over the
    # global batch the rows write (the loader drops the last partial batch)
    for r, steps in ((small, 6672), (tiny, 1251)):
        assert 1281167 // (r["setup"]["world_size"] * r["setup"]["micro_batch"]) == steps
        assert f"/{steps}]" in r["notes"]


def test_encoder_and_encoder_decoder_rows_keep_the_printed_figures():
    (asp,) = _by_source(ASP).values()
    assert (asp["value"], asp["unit"], asp["gpu"]) == (25870, "MiB", "V100-SXM2-32GB")
    assert (asp["setup"]["model"], asp["setup"]["precision"], asp["setup"]["micro_batch"]) == ("Flan-T5-large", "fp32", 8)
    assert "25870MiB" in asp["notes"]
    stx = _by_source(STX)
    figures = {r["setup"]["model"]: r["value"] for r in stx.values()}
    assert figures == {"RoBERTa-base": 4.5, "DistilBERT-base-uncased": 2.5}
    for r in stx.values():
        s = r["setup"]
        assert r["gpu"] == "T4-16GB" and s["task"] == "sequence-classification"
        assert (s["micro_batch"], s["seq_len"], s["padding"], s["precision"]) == (8, 128, "max_length", "amp-fp16")
    (simcse,) = _by_source(SIMCSE).values()
    # batch 512, each sentence encoded twice (two dropout views)
    assert simcse["outcome"] == "oom" and "peak_bytes" not in simcse
    assert (simcse["setup"]["micro_batch"], simcse["setup"]["seq_len"], simcse["gpu"]) == (1024, 32, "RTX-3090-24GB")


def test_multi_gpu_and_long_context_rows_are_out_of_memory_verdicts():
    lv = _by_source(LLAVA)
    assert all(r["outcome"] == "oom" and "peak_bytes" not in r for r in lv.values())
    shapes = {(r["setup"]["model"], r["setup"].get("zero_stage"), r["setup"].get("fsdp"), r["setup"]["world_size"],
               r["gpu"]) for r in lv.values()}
    assert shapes == {("LLaVA-1.5-7B", 2, None, 8, "A100-SXM-40GB"), ("LLaVA-1.5-13B", 3, None, 8, "A100-SXM-40GB"),
                      ("LLaVA-1.5-13B", None, "full", 1, "A100-SXM-80GB")}
    for r in lv.values():
        assert (r["setup"]["micro_batch"], r["setup"]["seq_len"], r["setup"]["grad_ckpt"]) == (1, 2048, True)
    (longlora,) = _by_source(LONGLORA).values()
    s = longlora["setup"]
    assert (s["seq_len"], s["zero_stage"], s["world_size"], s["lora_r"], s["micro_batch"]) == (32768, 2, 8, 8, 1)
    assert "31.56 GiB already allocated" in longlora["notes"]
    (yarn,) = _by_source(YARN).values()
    s = yarn["setup"]
    assert (s["seq_len"], s["world_size"], s["precision"], yarn["gpu"]) == (65536, 2, "bf16", "A100-SXM-80GB")
    assert "lora_r" not in s and "zero_stage" not in s
    (ep,) = _by_source(EPOCHRAFT).values()
    s = ep["setup"]
    # the run that kept transformers' KV cache during training ran out of memory (use_cache=False then fitted)
    assert ep["outcome"] == "oom" and s["use_cache"] is True and s["grad_ckpt"] is True
    assert (s["fsdp"], s["world_size"], s["micro_batch"], s["seq_len"]) == ("full", 16, 8, 4096)
    assert "use_cache=False" in ep["notes"]
    (star,) = _by_source(STARCODER).values()
    assert star["outcome"] == "oom"
    assert (star["setup"]["seq_len"], star["setup"]["quant"], star["setup"]["lora_r"]) == (8192, "8bit", 16)


def test_toolbench_rows_are_per_gpu_figures_of_a_four_gpu_8k_job():
    tb = _by_source(TOOLBENCH)
    full = tb["llama-7b-full-ft-fsdp-full-ampbf16-4xa100-80gb-b2-s8192"]
    lora = tb["llama-7b-lora-r8-qv-zero2-offload-bf16-4xa100-80gb-b2-s8192"]
    # '显存占用60+g/gpu' (full) and '27+g/gpu' (LoRA): the stated lower bounds
    assert (full["value"], lora["value"]) == (60, 27)
    assert "60+g/gpu" in full["notes"] and "27+g/gpu" in lora["notes"]
    assert full["setup"]["fsdp"] == "full" and "lora_r" not in full["setup"]
    assert (lora["setup"]["zero_stage"], lora["setup"]["offload_optimizer"], lora["setup"]["lora_r"]) == (2, "cpu", 8)
    for r in tb.values():
        s = r["setup"]
        assert (s["world_size"], s["micro_batch"], s["grad_accum"], s["seq_len"], s["padding"]) == (
            4, 2, 2, 8192, "max_length")
        assert r["gpu"] == "A100-SXM-80GB" and r["peak_bytes"] < 80 * 10**9


def test_rtx4090_lora_rows_write_the_middle_of_a_stated_range():
    al = _by_source(ALPACA_LORA)
    assert {r["setup"]["model"]: r["value"] for r in al.values()} == {"Llama-2-7B": 9, "Llama-2-13B": 16.5}
    for r in al.values():
        assert "8-10GB" in r["notes"] and "16-17GB" in r["notes"]
    (slf,) = _by_source(SLF).values()
    assert (slf["value"], slf["setup"]["micro_batch"], slf["setup"]["seq_len"]) == (17, 15, 199)
    for r in [*al.values(), slf]:
        assert r["gpu"] == "RTX-4090-24GB" and r["setup"]["quant"] == "8bit" and r["setup"]["kbit_prepared"] is True
        assert r["peak_bytes"] <= 24 * 2**30


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"] and source["date"]
    for url in [source["url"], *source["also"]]:
        if "github.com" in url and "/blob/" in url:
            assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-17"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["measured"] in ("max_memory_allocated", "nvidia-smi")
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
        # the row says which counter it read and, for a bare 'GB', which unit base it took
        assert any("max_memory_allocated" in u or "nvidia-smi" in u for u in row["unknown"])
    else:
        assert row["outcome"] == "oom" and "peak_bytes" not in row
    setup = row["setup"]
    assert setup["torch_version"] and setup["mode"] == "train" and setup["micro_batch"]
    if not setup["model"].startswith("Swin"):
        assert setup["transformers_version"] and setup["seq_len"]
