"""The nineteenth held-out set (calibration/public/heldout19.json): public measured peaks and out-of-memory verdicts
from four publishers no earlier set uses (Zhipu AI / Tsinghua KEG's GLM-4 and ChatGLM3 demos and issues,
usamec/lowmem_finetuning, simplescaling/s1, vasistalodagala/whisper-finetune), half the rows not single-GPU LoRA
of a decoder LLM (ZeRO-3 full fine-tunes in bf16 and fp32, Adafactor applied inside backward with a fused
cross-entropy, FSDP at 32k tokens, a Whisper-large-v3 fine-tune with 8-bit AdamW), every row sourced, the source's
printed figure kept, and what the source leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout19.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 19)))]
UNIT = {"GiB": 2**30, "MiB": 2**20, "GB": 10**9}
GLM4 = "glm4-finetune-demo-table"
CHATGLM3 = "chatglm3-finetune-demo-table"
GLM_OOM = "glm-issues-lora-oom"
LOWMEM = "lowmem-finetuning-readme"
S1 = "s1-qwen32b-fsdp-32k-oom"
WHISPER = "whisper-finetune-issue-20"


def _by_source(key):
    return {r["id"].split("/")[1]: r for r in ROWS if r["source"] == key}


def _model(row):
    return row["setup"].get("model") or row["setup"]["model_name"]


def test_rows_from_publishers_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    assert 15 <= len(ROWS) <= 25
    assert set(DOC["sources"]) == {GLM4, CHATGLM3, GLM_OOM, LOWMEM, S1, WHISPER}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    mine = {publisher(u) for u in all_urls(DOC)}
    assert mine == {"thudm", "usamec", "simplescaling", "vasistalodagala"}
    earlier = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("https://")}
    assert not mine & earlier
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_the_mix_is_not_single_gpu_decoder_lora():
    lora_one_gpu = [r for r in ROWS if "lora_r" in r["setup"] and r["setup"]["world_size"] == 1]
    assert 3 * len(lora_one_gpu) < len(ROWS)
    assert {"Whisper-large-v3", "Qwen2.5-32B", "GLM-4-9B-Chat", "ChatGLM3-6B", "Llama-3.2-1B", "Llama-3.1-8B"} == {
        _model(r) for r in ROWS}
    ooms = sum(1 for r in ROWS if r["outcome"] == "oom")
    assert ooms >= 3 and 2 * ooms < len(ROWS)
    assert {r["setup"].get("zero_stage") for r in ROWS} >= {3}
    assert any(r["setup"].get("fsdp") == "full" for r in ROWS)
    assert {r["setup"]["optimizer"] for r in ROWS} == {"adamw", "adafactor", "adamw-8bit"}
    assert {r["setup"]["precision"] for r in ROWS} == {"bf16", "fp16", "fp32", "amp-bf16", "amp-fp16"}
    assert {r["setup"]["world_size"] for r in ROWS} == {1, 4, 8, 16}
    assert max(r["setup"]["seq_len"] for r in ROWS) == 32768
    assert {r["measured"] for r in ROWS} == {"nvidia-smi"}


def test_demo_tables_keep_their_mib_figures_per_gpu():
    g4 = _by_source(GLM4)
    lora = g4["glm-4-9b-chat-lora-r8-bf16-s1025-1xa100-80gb"]
    sft = g4["glm-4-9b-chat-full-ft-zero3-bf16-s769-8xa100-80gb"]
    assert (lora["value"], lora["unit"], lora["peak_bytes"]) == (21531, "MiB", 21531 * 2**20)
    assert (sft["value"], sft["setup"]["world_size"], sft["setup"]["zero_stage"]) == (80935, 8, 3)
    assert "21531MiB" in lora["notes"] and "80935MiB" in sft["notes"]
    # the cap of each config: input + output + 1 (finetune.py's process_batch)
    assert (lora["setup"]["seq_len"], sft["setup"]["seq_len"]) == (512 + 512 + 1, 256 + 512 + 1)
    assert lora["setup"]["lora_r"] == 8 and "lora_r" not in sft["setup"]
    c3 = _by_source(CHATGLM3)
    c3_lora = c3["chatglm3-6b-lora-r8-fp16-s385-1gpu"]
    c3_sft = c3["chatglm3-6b-full-ft-zero3-fp32-s385-4gpu"]
    assert (c3_lora["value"], c3_sft["value"], c3_sft["setup"]["world_size"]) == (14082, 48346, 4)
    assert "14082MiB" in c3_lora["notes"] and "48346MiB" in c3_sft["notes"]
    # finetune_hf.py casts every trainable parameter to fp32: all of them in the full fine-tune
    assert (c3_lora["setup"]["precision"], c3_sft["setup"]["precision"]) == ("fp16", "fp32")
    for r in [*g4.values(), *c3.values()]:
        assert r["unit"] == "MiB" and r["gpu"] == "A100-SXM-80GB"
        assert r["setup"]["hf_config"]["num_key_value_heads"] == 2
        assert r["setup"]["micro_batch"] == 1
    # GLM-4's finetune.py enables gradient checkpointing; ChatGLM3's finetune_hf.py of January 2024 (9484f82,
    # b564f40) does not (b74bab7 added the call on 2024-02-06; est51)
    assert all(r["setup"]["grad_ckpt"] is True for r in g4.values())
    assert all(r["setup"]["grad_ckpt"] is False for r in c3.values())


def test_lowmem_rows_are_mem_get_info_in_gib():
    lm = _by_source(LOWMEM)
    figures = {k: (r["value"], r["setup"]["optimizer"], r["setup"]["micro_batch"]) for k, r in lm.items()}
    assert sorted(figures.values()) == [(3.9, "adafactor", 8), (14.4, "adafactor", 8), (18.6, "adafactor", 8),
                                        (29.2, "adamw", 32)]
    for r in lm.values():
        assert r["unit"] == "GiB" and r["peak_bytes"] == round(r["value"] * 2**30)
        assert any("mem_get_info" in u for u in r["unknown"])
        assert (r["setup"]["seq_len"], r["setup"]["padding"], r["setup"]["compiled"]) == (160, "max_length", True)
    in_backward = [r for r in lm.values() if r["setup"].get("optimizer_in_backward")]
    assert {_model(r) for r in in_backward} == {"Llama-3.2-1B", "Llama-3.1-8B"}
    assert all(r["setup"]["loss"] == "fused" and r["setup"]["precision"] == "bf16" for r in in_backward)
    assert all(r["setup"]["loss"] == "standard" and r["setup"]["precision"] == "amp-bf16"
               for r in lm.values() if r not in in_backward)


def test_out_of_memory_verdicts_keep_their_setups():
    oom = _by_source(GLM_OOM)
    z3 = oom["glm-4-9b-chat-lora-zero3-bf16-s6145-4xrtx3090"]
    assert (z3["gpu"], z3["setup"]["world_size"], z3["setup"]["zero_stage"], z3["setup"]["seq_len"]) == (
        "RTX-3090-24GB", 4, 3, 4096 + 2048 + 1)
    assert oom["glm-4-9b-chat-lora-r8-bf16-s1025-rtx3090ti"]["gpu"] == "RTX-3090-Ti-24GB"
    c3 = oom["chatglm3-6b-lora-r4-fp16-s2561-rtx4090"]
    assert (c3["gpu"], c3["setup"]["lora_r"], c3["setup"]["seq_len"]) == ("RTX-4090-24GB", 4, 2048 + 512 + 1)
    s1 = _by_source(S1)
    assert {(r["setup"]["world_size"], r["setup"]["seq_len"]) for r in s1.values()} == {
        (8, 32768), (16, 32000), (16, 32768)}
    for r in s1.values():
        s = r["setup"]
        assert (s["model"], s["fsdp"], s["precision"], s["micro_batch"], s["grad_ckpt"]) == (
            "Qwen2.5-32B", "full", "amp-bf16", 1, True)
        assert r["gpu"] == "H100-SXM-80GB"
    assert "got OOM with 8" in s1["qwen2.5-32b-full-ft-fsdp-ampbf16-b1-s32768-8xh100"]["notes"]
    for r in [*oom.values(), *s1.values()]:
        assert r["outcome"] == "oom" and "peak_bytes" not in r and "value" not in r


def test_whisper_row_is_a_full_fine_tune_with_eight_bit_adamw():
    (wh,) = _by_source(WHISPER).values()
    s = wh["setup"]
    assert (wh["value"], wh["unit"], wh["gpu"]) == (41, "GiB", "A100-SXM-80GB")
    assert "allocates 41GB" in wh["notes"]
    assert (s["optimizer"], s["precision"], s["seq_len"], s["micro_batch"], s["grad_ckpt"]) == (
        "adamw-8bit", "amp-fp16", 1500, 48, True)
    assert "lora_r" not in s and any("batch is not said" in u for u in wh["unknown"])


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"] and source["date"]
    for url in [source["url"], *source["also"]]:
        if "github.com" in url and "/blob/" in url:
            assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-19"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["measured"] in ("max_memory_allocated", "memory_reserved", "nvidia-smi")
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
        # the row says which counter it read and, for a bare 'GB', which unit base it took
        assert any("nvidia-smi" in u or "GiB" in u or "MiB" in u for u in row["unknown"])
    else:
        assert row["outcome"] == "oom" and "peak_bytes" not in row
    setup = row["setup"]
    assert setup["torch_version"] and setup["transformers_version"] and setup["mode"] == "train"
    assert setup["micro_batch"] and setup["seq_len"] and setup["world_size"]
