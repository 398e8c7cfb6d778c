"""The fifteenth held-out set (calibration/public/heldout15.json): public measured peaks from publishers no
earlier set uses (Unsloth's docs: the longest context its Hugging Face + FA2 baseline fits for QLoRA of Llama 3.1
8B and Llama 3.3 70B per GPU memory size, with two out-of-memory verdicts; axolotl's example READMEs of 2023, 2024
and 2025 with the configs beside them), every row sourced, the source's printed figure kept, and what the source
leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout15.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 15)))]
UNIT = {"GiB": 2**30, "MiB": 2**20, "GB": 10**9}
UNSLOTH = "unsloth-docs-context-length-benchmarks"
AX_LLAMA2 = "axolotl-llama-2-example-2023"
AX_LLAMA3 = "axolotl-llama-3-examples-2024"
AX_GUIDES = "axolotl-model-guides-2025"
XTURING = "xturing-readme-llama-7b-deepspeed"


def _by_source(key):
    return [r for r in ROWS if r["source"] == key]


def test_rows_from_publishers_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    assert 15 <= len(ROWS) <= 25
    assert set(DOC["sources"]) >= {UNSLOTH, AX_LLAMA2, AX_LLAMA3, AX_GUIDES, XTURING}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    mine = {publisher(u) for u in all_urls(DOC)}
    assert {"unsloth.ai", "axolotl-ai-cloud", "stochasticai"} <= mine
    earlier = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("https://")}
    assert not mine & earlier
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_unsloth_rows_read_the_longest_context_as_a_peak_at_the_cards_memory():
    un = _by_source(UNSLOTH)
    assert len(un) == 9
    ran = sorted((r for r in un if r["outcome"] == "ran" and r["setup"]["model"] == "Llama-3.1-8B"),
                 key=lambda r: r["value"])
    # the documented Hugging Face + FA2 column, 12 GB to 80 GB
    assert [(r["value"], r["setup"]["seq_len"]) for r in ran] == [
        (12, 932), (16, 2551), (24, 5789), (40, 12264), (48, 15502), (80, 28454)]
    for r in un:
        s = r["setup"]
        assert (s["quant"], s["lora_r"], s["lora_targets"], s["micro_batch"]) == ("4bit", 32, ["all-linear"], 1)
        assert s["attention"] == "flash" and s["padding"] == "max_length"
        assert any("bound" in u for u in r["unknown"])
        if r["outcome"] == "ran":
            # the bound is the card's memory in 10^9 bytes: never more than the card written holds
            assert r["unit"] == "GB" and r["peak_bytes"] == r["value"] * 10**9
            assert f"'{r['value']} GB'" in r["notes"]
    # a longer context only fits on a larger card
    assert [r["setup"]["seq_len"] for r in ran] == sorted(r["setup"]["seq_len"] for r in ran)
    oom = {(r["setup"]["model"], r["gpu"]) for r in un if r["outcome"] == "oom"}
    assert oom == {("Llama-3.1-8B", "RTX-4060-8GB"), ("Llama-3.1-70B", "RTX-A6000-48GB")}
    big = [r for r in un if r["setup"]["model"] == "Llama-3.1-70B" and r["outcome"] == "ran"]
    assert [(r["value"], r["setup"]["seq_len"], r["gpu"]) for r in big] == [(80, 6916, "A100-SXM-80GB")]


def test_axolotl_rows_keep_the_readme_figure_and_the_config_beside_it():
    l2 = {r["id"].split("/")[1]: r for r in _by_source(AX_LLAMA2)}
    qlora, lora = (l2["llama2-7b-qlora-r32-s4096-packed-b2-rtx4090"],
                   l2["llama2-7b-lora8bit-r32-s4096-packed-b2-rtx4090"])
    assert (qlora["value"], lora["value"]) == (17, 20)           # 'about 17 GB ... qlora and 20 GB ... lora'
    assert (qlora["setup"]["quant"], lora["setup"]["quant"]) == ("4bit", "8bit")
    assert qlora["gpu"] == lora["gpu"] == "RTX-4090-24GB"
    for r in (qlora, lora):
        assert (r["setup"]["seq_len"], r["setup"]["micro_batch"], r["setup"]["padding"]) == (4096, 2, "packed")
    l3 = {r["id"].split("/")[1]: r for r in _by_source(AX_LLAMA3)}
    assert sorted(r["value"] for r in l3.values()) == [11, 21, 48]
    fsdp = l3["llama3-70b-qlora-r8-fsdp2gpu-offload-s512-b1"]["setup"]
    assert (fsdp["world_size"], fsdp["fsdp"], fsdp["offload_params"], fsdp["kbit_prepared"]) == (2, "full", "cpu",
                                                                                                False)
    fft = l3["llama3-8b-fft-bf16-paged-adamw8bit-s8192-b1"]["setup"]
    assert "lora_r" not in fft and "quant" not in fft and fft["seq_len"] == 8192
    guides = _by_source(AX_GUIDES)
    assert sorted(r["value"] for r in guides) == [8.76, 11.3, 21, 24]
    for r in guides:
        s = r["setup"]
        assert (s["seq_len"], s["micro_batch"], s["padding"], s["lora_r"]) == (2048, 2, "packed", 32)
        assert s["hf_config"]["model_type"] in ("mistral", "olmo2")
        # Cut Cross Entropy is in every guide's config but the first (Magistral, June 2025)
        assert (s["loss"] == "fused") == ("cce" in r["id"])
        assert re.search(rf"about {r['value']:g} ?(GiB|GB) VRAM", r["notes"]), "the guide's own words"
    # the December guides print two decimals in GiB, read as the trainer's reserved figure
    assert {r["measured"] for r in guides if r["unit"] == "GiB" and r["value"] % 1} == {"memory_reserved"}


def test_xturing_rows_are_zero2_on_four_a100s_with_and_without_offload():
    xt = {r["id"].split("/")[1]: r for r in _by_source(XTURING)}
    assert len(xt) == 3
    for r in xt.values():
        s = r["setup"]
        assert (s["world_size"], s["zero_stage"], s["precision"], s["micro_batch"], s["seq_len"]) == (4, 2, "fp16",
                                                                                                     1, 512)
        assert r["gpu"] == "A100-SXM-40GB" and r["peak_bytes"] < 40 * 10**9
    full = xt["llama-7b-full-zero2-offload-4xa100-b1-s512"]
    lora = xt["llama-7b-lora-r8-qv-zero2-4xa100-b1-s512"]
    lora_off = xt["llama-7b-lora-r8-qv-zero2-offload-4xa100-b1-s512"]
    assert (full["value"], lora["value"], lora_off["value"]) == (33.5, 23.7, 21.9)   # the README's GPU row
    assert "lora_r" not in full["setup"] and full["setup"]["offload_optimizer"] == "cpu"
    assert lora["setup"]["lora_targets"] == ["q_proj", "v_proj"] and "offload_optimizer" not in lora["setup"]
    # offloading the (LoRA-sized) optimizer states saves little; the full fine-tune holds the most
    assert full["value"] > lora["value"] > lora_off["value"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"]
    for url in [source["url"], *source["also"]]:
        if "github.com" in url and "/blob/" in url:
            assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-15"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    else:
        assert row["outcome"] == "oom" and "peak_bytes" not in row
    setup = row["setup"]
    assert setup["torch_version"] and setup["transformers_version"]
    assert setup["mode"] == "train" and setup["seq_len"] and setup["micro_batch"]
