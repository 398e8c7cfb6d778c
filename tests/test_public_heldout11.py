"""The eleventh held-out set (calibration/public/heldout11.json): public measured peaks from two
publishers no earlier set uses (long-context bf16 generation with FlashAttention-2 on an A100, and
8,192-token full/LoRA/QLoRA fine-tunes of current model families on an H100, one FSDP CPU-offload row
and one out-of-memory verdict row), every row sourced, its measured quantity and unit read from the
code that printed it, and what the source leaves open recorded as unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout11.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 11)))]
UNIT = {"GB": 10**9, "GiB": 2**30}
GENERATION = "qwen2.5-speed-benchmark-transformers"
FINETUNE = "universal-llm-trainer-gpu-test"


def _page(url):
    return url.split("#")[0]


def _repo(url):
    return "/".join(url.split("/")[3:5]).lower()


def _all_urls(doc):
    for source in doc["sources"].values():
        yield source["url"]
        yield from (u.split(" ")[0] for u in source.get("also", []))


def test_eighteen_rows_from_two_publishers_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS) >= 18
    assert sum(1 for r in ROWS if "peak_bytes" in r) >= 17
    assert set(DOC["sources"]) == {GENERATION, FINETUNE}
    used = {_page(u) for doc in EARLIER for u in _all_urls(doc)}
    assert not {_page(u) for u in _all_urls(DOC)} & used
    # no earlier set's repository either (independent publishers; Qwen2.5 is now QwenLM/Qwen3)
    used_repos = {_repo(u) for doc in EARLIER for u in _all_urls(doc) if u.startswith("https://github.com/")}
    mine = {_repo(u) for u in _all_urls(DOC) if u.startswith("https://github.com/")}
    assert mine == {"qwenlm/qwen2.5", "ljm565/universal-llm-trainer"}
    assert not (mine | {"qwenlm/qwen3"}) & used_repos
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_generation_rows_are_long_context_bf16_flash_on_one_a100():
    gen = [r for r in ROWS if r["source"] == GENERATION]
    assert len(gen) == 6
    for r in gen:
        s = r["setup"]
        assert (s["mode"], s["precision"], s["attention"], s["micro_batch"], s["max_new_tokens"]) == \
            ("generate", "bf16", "flash", 1, 2048)
        assert r["gpu"] == "A100-SXM-80GB" and r["measured"] == "max_memory_allocated"
        # the script divides by 1024**3: the column is GiB although it says GB
        assert r["unit"] == "GiB"
    assert {r["setup"]["model"] for r in gen} == {f"Qwen2.5-{n}" for n in ("0.5B", "1.5B", "3B", "7B", "14B", "32B")}
    assert max(r["setup"]["seq_len"] for r in gen) == 30720 and min(r["setup"]["seq_len"] for r in gen) == 1
    # the largest row is within 10% of the A100's 80 GB
    assert max(r["peak_bytes"] for r in gen) > 0.9 * 80 * 10**9


def test_finetune_rows_span_methods_families_and_a_verdict():
    ft = [r for r in ROWS if r["source"] == FINETUNE]
    setups = [r["setup"] for r in ft]
    assert all(s["seq_len"] == 8192 and s["micro_batch"] == 2 and s["grad_ckpt"] for s in setups)
    assert all(s["loss_in_logits_dtype"] and s["padding"] == "max_length" for s in setups)
    methods = {("qlora" if s.get("quant") else "lora" if s.get("lora_r") else "full") for s in setups}
    assert methods == {"full", "lora", "qlora"}
    types = {(s.get("hf_config") or {}).get("model_type") or s["model"] for s in setups}
    assert {"gemma2", "Gemma-7B", "Llama-3.1-8B", "Llama-2-13B", "Phi-3-mini"} <= types
    assert all(s["quant_type"] == "nf4" and s["double_quant"] and s["kbit_prepared"]
               for s in setups if s.get("quant"))
    fsdp = [s for s in setups if s.get("fsdp")]
    assert len(fsdp) == 1 and fsdp[0]["world_size"] == 2 and fsdp[0]["offload_params"] == "cpu"
    assert {r["outcome"] for r in ft} == {"ran", "oom"}
    # the trainer prints memory_reserved() / 1E9: reserved memory in 1e9-byte GB
    assert all(r["measured"] == "memory_reserved" and r.get("unit", "GB") == "GB" for r in ft)
    # Gemma-2's real config: logit soft-capping, which the catalog's entry lacks
    gemma2 = [s for s in setups if (s.get("hf_config") or {}).get("model_type") == "gemma2"]
    assert gemma2 and all(s["hf_config"]["final_logit_softcapping"] == 30.0 for s in gemma2)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    for url in [source["url"], *source["also"]]:
        if "/blob/" in url:
            assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-11"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    else:
        assert row["outcome"] == "oom" and "peak_bytes" not in row
    setup = row["setup"]
    assert setup["torch_version"] and setup["transformers_version"]
    assert setup["mode"] in ("train", "generate") and setup["seq_len"]
