"""The eighteenth held-out set (calibration/public/heldout18.json): public measured peaks and out-of-memory verdicts
from seven publishers no earlier set uses (XTuner's docs and issues, caikit-nlp, the NegCLIP authors, Ludwig, FastChat,
LLM-Workshop, OpenRLHF), most rows
not single-GPU LoRA of a decoder LLM (FSDP2 full fine-tunes read from the trainer's allocator log, a reward model, a
CLIP contrastive fine-tune, ZeRO-3 at 128k tokens, a vision-language QLoRA), every row sourced, the source's printed
figure kept, and what the source leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout18.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 18)))]
UNIT = {"GiB": 2**30, "MiB": 2**20, "GB": 10**9}
XT_V1 = "xtuner-v1-sft-logs"
XT_MM = "xtuner-mmengine-quickstart-logs"
XT_LONG = "xtuner-yi34b-128k-zero3-oom"
XT_LLAVA = "xtuner-issue-526-llava-qlora-3090"
CAIKIT = "caikit-nlp-llama2-7b-oom"
NEGCLIP = "negclip-issue-30"
LUDWIG = "ludwig-issue-3583-llama2-qlora-t4"
FASTCHAT = "fastchat-issue-407-vicuna-7b-fsdp"
WORKSHOP = "llm-workshop-issue-5-fsdp-7b"
OPENRLHF = "openrlhf-issue-384-dpo-glm4-oom"


def _by_source(key):
    return {r["id"].split("/")[1]: r for r in ROWS if r["source"] == key}


def _model(row):
    return row["setup"].get("model") or row["setup"]["model_name"]


def test_rows_from_publishers_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    assert 15 <= len(ROWS) <= 25
    assert set(DOC["sources"]) == {XT_V1, XT_MM, XT_LONG, XT_LLAVA, CAIKIT, NEGCLIP, LUDWIG, FASTCHAT,
                                  WORKSHOP, OPENRLHF}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    mine = {publisher(u) for u in all_urls(DOC)}
    assert mine == {"internlm", "caikit", "mertyg", "ludwig-ai", "lm-sys", "pacman100", "openrlhf"}
    earlier = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("https://")}
    assert not mine & earlier
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_the_mix_is_not_single_gpu_decoder_lora():
    lora_one_gpu = [r for r in ROWS if "lora_r" in r["setup"] and r["setup"]["world_size"] == 1]
    assert 3 * len(lora_one_gpu) < len(ROWS)
    # a reward model, a CLIP contrastive fine-tune, a vision-language model and decoders
    assert {"CLIP-ViT-B-32", "LLaVA-1.5-13B", "Qwen3-8B", "InternLM2-Chat-1.8B-SFT (reward model)"} <= {
        _model(r) for r in ROWS}
    ooms = sum(1 for r in ROWS if r["outcome"] == "oom")
    assert ooms >= 3 and 2 * ooms < len(ROWS)
    assert {r["setup"].get("zero_stage") for r in ROWS} >= {3}
    assert any(r["setup"].get("fsdp") == "full" and r["setup"].get("fsdp_version") == 2 for r in ROWS)
    assert {r["measured"] for r in ROWS if r["outcome"] == "ran"} == {
        "max_memory_allocated", "memory_reserved", "nvidia-smi"}
    assert {r["setup"]["world_size"] for r in ROWS} >= {1, 4, 8, 16, 32, 64}
    assert max(r["setup"]["seq_len"] for r in ROWS) == 131072


def test_xtuner_v1_rows_are_the_trainers_allocator_log_in_gib():
    v1 = _by_source(XT_V1)
    big = v1["qwen3-8b-sft-fsdp2-8gpu-pack4096-allocated"]
    big_r = v1["qwen3-8b-sft-fsdp2-8gpu-pack4096-reserved"]
    # 'max_memory: 18.02 GB reserved_memory: 22.20 GB' where the trainer divides by 1024**3
    assert (big["value"], big["unit"], big["peak_bytes"]) == (18.02, "GiB", round(18.02 * 2**30))
    assert (big_r["value"], big_r["measured"]) == (22.20, "memory_reserved")
    assert "max_memory: 18.02 GB reserved_memory: 22.20 GB" in big["notes"]
    tiny = v1["qwen3-tiny-3l-h512-sft-fsdp2-1gpu-pack4096-allocated"]
    assert tiny["value"] == 7.06 and "max_memory: 7.06 GB reserved_memory: 8.79 GB" in tiny["notes"]
    assert (tiny["setup"]["hf_config"]["num_hidden_layers"], tiny["setup"]["hf_config"]["hidden_size"]) == (3, 512)
    for r in v1.values():
        s = r["setup"]
        assert r["peak_bytes"] < 80 * 10**9
        assert (s["fsdp"], s["fsdp_version"], s["loss"], s["foreach"], s["seq_len"], s["padding"]) == (
            "full", 2, "chunked", False, 4096, "packed")
        assert s["world_size"] == (8 if s.get("model") == "Qwen3-8B" else 1)
    # the reserved figure of each run is at least its allocated figure
    assert big_r["peak_bytes"] >= big["peak_bytes"]
    assert v1["qwen3-tiny-3l-h512-sft-fsdp2-1gpu-pack4096-reserved"]["peak_bytes"] >= tiny["peak_bytes"]


def test_mmengine_rows_are_mib_of_max_memory_allocated():
    mm = _by_source(XT_MM)
    qlora = mm["internlm2-chat-7b-qlora-r64-all-linear-pack2048-1gpu"]
    reward = mm["internlm2-chat-1.8b-reward-full-ampfp16-b4pairs-s2048-a800"]
    assert (qlora["value"], qlora["unit"], reward["value"], reward["unit"]) == (13969, "MiB", 42186, "MiB")
    assert "memory: 13969" in qlora["notes"] and "memory: 42186" in reward["notes"]
    assert qlora["setup"]["quant"] == "4bit" and qlora["setup"]["lora_r"] == 64
    # four preference pairs: chosen and rejected of each pair are separate sequences
    assert (reward["setup"]["micro_batch"], reward["setup"]["task"], reward["setup"]["num_labels"]) == (
        8, "sequence-classification", 1)
    assert reward["gpu"] == "A800-80GB" and "lora_r" not in reward["setup"]
    for r in mm.values():
        assert r["measured"] == "max_memory_allocated"
        assert r["setup"]["hf_config"]["vocab_size"] == 92544


def test_out_of_memory_verdicts_keep_their_setups():
    yi = _by_source(XT_LONG)
    assert {r["setup"]["world_size"] for r in yi.values()} == {16, 32, 64}
    for r in yi.values():
        s = r["setup"]
        assert r["outcome"] == "oom" and "peak_bytes" not in r
        assert (s["zero_stage"], s["seq_len"], s["micro_batch"], s["grad_ckpt"]) == (3, 131072, 1, True)
        assert "lora_r" not in s and s["hf_config"]["num_hidden_layers"] == 60
    (llava,) = _by_source(XT_LLAVA).values()
    assert (llava["gpu"], llava["setup"]["micro_batch"], llava["setup"]["lora_r"]) == ("RTX-3090-24GB", 16, 512)
    ck = _by_source(CAIKIT)
    bf16 = ck["llama2-7b-full-ft-bf16-b7-rte-a100-80gb"]
    fp32 = ck["llama2-7b-full-ft-fp32-b1-rte-a100-80gb"]
    # batch 6 was the largest that fitted in bf16; fp32 failed at batch 1
    assert (bf16["setup"]["precision"], bf16["setup"]["micro_batch"]) == ("bf16", 7)
    assert (fp32["setup"]["precision"], fp32["setup"]["micro_batch"]) == ("fp32", 1)
    assert "First batch size that failed tuning with an out-of-memory error: 7" in bf16["notes"]
    (lw,) = _by_source(LUDWIG).values()
    assert (lw["gpu"], lw["setup"]["quant"], lw["setup"]["micro_batch"]) == ("T4-16GB", "4bit", 2)
    assert "13.37 GiB already allocated" in lw["notes"]
    for r in [*ck.values(), lw, llava]:
        assert r["outcome"] == "oom" and "peak_bytes" not in r


def test_negclip_rows_count_both_towers_batches():
    nc = _by_source(NEGCLIP)
    small = nc["clip-vit-b32-negclip-b32-ampfp16-rtx3060"]
    large = nc["clip-vit-b32-negclip-b256-ampfp16-v100-32gb"]
    assert (small["value"], small["gpu"], large["value"], large["gpu"]) == (9, "RTX-3060-12GB", 28, "V100-SXM2-32GB")
    # B pairs are 2B images and 4B captions; the row writes 3B (see the unknown it records)
    assert (small["setup"]["micro_batch"], large["setup"]["micro_batch"]) == (3 * 32, 3 * 256)
    assert "batch-size=32" in small["notes"] and "batch size of 256" in large["notes"]
    for r in nc.values():
        assert r["measured"] == "nvidia-smi" and r["peak_bytes"] < UNIT["GiB"] * 32


def test_fastchat_fsdp_rows_differ_only_in_world_size():
    fc = _by_source(FASTCHAT)
    ran = fc["llama-7b-full-ft-fsdp-full-ampbf16-b1-s2048-8xa100-40gb"]
    oom = fc["llama-7b-full-ft-fsdp-full-ampbf16-b1-s2048-4xa100-40gb"]
    # batch 1 'consumes about 30G on each card' on 8 x A100 40GB and is still OOM on 4
    assert (ran["outcome"], ran["value"], oom["outcome"]) == ("ran", 30, "oom")
    assert "about 30G on each card" in ran["notes"] and "still OOM" in oom["notes"]
    differ = {k for k in {*ran["setup"], *oom["setup"]} if ran["setup"].get(k) != oom["setup"].get(k)}
    assert differ == {"world_size", "devices_per_node"}
    s = ran["setup"]
    assert (s["fsdp"], s["fsdp_version"], s["padding"], s["seq_len"], s["micro_batch"]) == (
        "full", 1, "max_length", 2048, 1)


def test_llm_workshop_row_is_an_fsdp_full_fine_tune_with_paged_adamw():
    (ws,) = _by_source(WORKSHOP).values()
    s = ws["setup"]
    assert (ws["value"], ws["unit"], ws["measured"]) == (60, "GiB", "nvidia-smi")
    assert "~60GB GPU memory using FSDP with batch size=1" in ws["notes"]
    assert (s["optimizer"], s["fsdp"], s["world_size"], s["micro_batch"], s["seq_len"]) == (
        "paged-adamw", "full", 8, 1, 2048)
    assert "lora_r" not in s and "quant" not in s


def test_openrlhf_dpo_verdict_counts_the_pair_and_records_the_reference_model():
    (dpo,) = _by_source(OPENRLHF).values()
    s = dpo["setup"]
    assert dpo["outcome"] == "oom" and "peak_bytes" not in dpo
    # micro_train_batch_size 1 is one preference pair: chosen and rejected are concatenated
    assert (s["micro_batch"], s["zero_stage"], s["world_size"], s["seq_len"], s["attention"]) == (
        2, 3, 8, 2048, "eager")
    assert any("reference model" in u for u in dpo["unknown"])
    assert "flash_attn" in dpo["notes"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"] and source["date"]
    for url in [source["url"], *source["also"]]:
        if "github.com" in url and "/blob/" in url:
            assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-18"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["measured"] in ("max_memory_allocated", "memory_reserved", "nvidia-smi")
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
        # the row says which counter it read and, for a bare 'GB', which unit base it took
        assert any("max_memory" in u or "nvidia-smi" in u or "GiB" in u or "MiB" in u for u in row["unknown"])
    else:
        assert row["outcome"] == "oom" and "peak_bytes" not in row
    setup = row["setup"]
    assert setup["torch_version"] and setup["transformers_version"] and setup["mode"] == "train"
    assert setup["micro_batch"] and setup["seq_len"] and setup["world_size"]
