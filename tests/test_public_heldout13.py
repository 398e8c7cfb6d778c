"""The thirteenth held-out set (calibration/public/heldout13.json): public measured peaks from two
publishers no earlier set uses (LinkedIn's Liger-Kernel: Trainer + FSDP1 fine-tunes of Llama-3-8B and
Qwen2-7B on four and eight A100s with and without the fused linear cross-entropy, a torch.compile pair
and out-of-memory verdicts; DeepSeek-AI's DeepSeek-LLM 7B inference profile on one A100-PCIE-40GB),
every row sourced, its unit and measured quantity read from the code that printed it or argued from
the figures, and what the source leaves open recorded as unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout13.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 12)))]
UNIT = {"GiB": 2**30, "MiB": 2**20}
LIGER_HF = "liger-kernel-hf-trainer-example"
LIGER_E2E = "liger-kernel-readme-e2e"
DEEPSEEK = "deepseek-llm-7b-inference-memory"
# held-out-12 (branch estheld12) takes its rows from modelscope/ms-swift and philschmid's notebooks
HELDOUT12_REPOS = {"modelscope/ms-swift", "philschmid/deep-learning-pytorch-huggingface"}


def _page(url):
    return url.split("#")[0].split(" ")[0]


def _repo(url):
    return "/".join(url.split("/")[3:5]).lower()


def _all_urls(doc):
    for source in doc["sources"].values():
        yield source["url"]
        yield from (u.split(" ")[0] for u in source.get("also", []))


def test_rows_from_two_publishers_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 24
    assert sum(1 for r in ROWS if "peak_bytes" in r) == 19
    assert set(DOC["sources"]) == {LIGER_HF, LIGER_E2E, DEEPSEEK}
    used = {_page(u) for doc in EARLIER for u in _all_urls(doc)}
    assert not {_page(u) for u in _all_urls(DOC)} & used
    used_repos = {_repo(u) for doc in EARLIER for u in _all_urls(doc) if u.startswith("https://github.com/")}
    mine = {_repo(u) for u in _all_urls(DOC) if u.startswith("https://github.com/")}
    assert mine == {"linkedin/liger-kernel", "deepseek-ai/deepseek-llm"}
    assert not mine & (used_repos | HELDOUT12_REPOS)
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_liger_rows_pair_the_fused_loss_with_hf_runs_of_the_same_job():
    liger = [r for r in ROWS if r["source"] in (LIGER_HF, LIGER_E2E)]
    for r in liger:
        s = r["setup"]
        assert (s["fsdp"], s["grad_ckpt"], s["optimizer"], s["precision"], s["mode"]) == \
            ("full", True, "adamw", "amp-bf16", "train")
        assert r["gpu"] == "A100-SXM-80GB" and s["model"] in ("Llama-3-8B", "Qwen2-7B")
        assert s["loss"] == ("fused" if r["id"].endswith("liger") else "standard")
    # the example's callback divides by 2**20: MiB; its Qwen chart prints the allocated peaks
    hf = {r["id"].split("/")[1]: r for r in liger if r["source"] == LIGER_HF}
    assert all(r["measured"] == "max_memory_allocated" and r["setup"]["world_size"] == 4 for r in hf.values())
    assert hf["qwen2-7b-fsdp4-b32-s512-hf"]["value"] == 51154.27
    assert hf["qwen2-7b-fsdp4-b32-s512-hf"]["unit"] == "MiB"
    # with Liger a larger batch fits where the Hugging Face run of the same model ran out of memory
    assert hf["qwen2-7b-fsdp4-b48-s512-hf"]["outcome"] == "oom"
    assert hf["qwen2-7b-fsdp4-b64-s512-liger"]["outcome"] == "ran"
    assert hf["llama-3-8b-fsdp4-b64-s512-hf"]["outcome"] == "oom"
    assert hf["llama-3-8b-fsdp4-b64-s512-liger"]["outcome"] == "ran"
    e2e = [r for r in liger if r["source"] == LIGER_E2E]
    assert all(r["measured"] == "memory_reserved" and r["setup"]["world_size"] == 8 for r in e2e)
    assert {r["setup"]["seq_len"] for r in e2e} == {1024, 2048, 4096, 16384}
    assert [r["value"] for r in e2e if r["setup"].get("compiled")] == [66358, 31000]


def test_chart_readings_say_so():
    for r in ROWS:
        read_off = "chart image" in " ".join(r.get("unknown", []))
        if r["source"] == LIGER_E2E and not r["setup"].get("compiled") and r["outcome"] == "ran":
            assert read_off, r["id"]
        if r["source"] == LIGER_HF and r["outcome"] == "ran":
            assert read_off == r["setup"]["model"].startswith("Llama"), r["id"]
        if r["source"] == DEEPSEEK or r["outcome"] == "oom":
            assert not read_off, r["id"]


def test_deepseek_rows_are_bf16_inference_on_one_40gb_a100():
    ds = [r for r in ROWS if r["source"] == DEEPSEEK]
    assert len(ds) == 9 and {r["outcome"] for r in ds} == {"ran", "oom"}
    for r in ds:
        s = r["setup"]
        assert (s["mode"], s["precision"], s["world_size"], s["attention"]) == ("generate", "bf16", 1, "eager")
        assert r["gpu"] == "A100-PCIe-40GB" and s["hf_config"]["num_hidden_layers"] == 30
        assert s["hf_config"]["vocab_size"] == 102400
    ran = [r for r in ds if r["outcome"] == "ran"]
    assert all(r["unit"] == "GiB" for r in ran)
    # read as GiB: the smallest peak sits above the bf16 weights in GiB and below them in 1e9 bytes
    weights = 2 * (102400 * 4096 * 2 + 30 * (4 * 4096 * 4096 + 3 * 4096 * 11008 + 2 * 4096) + 4096)
    smallest = min(r["value"] for r in ran)
    assert smallest * 10**9 < weights < smallest * 2**30
    # every peak fits the 40 GB card and grows with batch x tokens
    assert max(r["peak_bytes"] for r in ran) < 40 * 2**30
    by_tokens = sorted(ran, key=lambda r: r["setup"]["micro_batch"] * r["setup"]["seq_len"])
    assert by_tokens[0]["value"] < by_tokens[-1]["value"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    for url in [source["url"], *source["also"]]:
        if "github.com" in url and "/blob/" in url:
            assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-13"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    else:
        assert row["outcome"] == "oom" and "peak_bytes" not in row
    setup = row["setup"]
    assert setup["torch_version"] and setup["transformers_version"]
    assert setup["mode"] in ("train", "generate") and setup["seq_len"] and setup["micro_batch"]
