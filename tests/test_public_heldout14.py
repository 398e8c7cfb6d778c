"""The fourteenth held-out set (calibration/public/heldout14.json): public measured peaks from three
publishers no earlier set uses (LLaMA-Factory's wiki: a QLoRA context-length sweep of LLaMA2-7B on one
A100 40GB with two out-of-memory verdicts; chenyaofo's DeepSpeed gist: LLaMA-7B full fine-tunes on eight
A800s under ZeRO-2/3 with checkpointing and CPU offload; milabench's memory model: BERT-base masked-LM
training in fp32 and fp16 AMP), every row sourced, the source's printed figure kept, and what the source
leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout14.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 14)))]
UNIT = {"GiB": 2**30, "MiB": 2**20}
LLAMA_FACTORY = "llama-factory-wiki-performance-comparison"
DS_GIST = "chenyaofo-deepspeed-llama-7b-benchmark"
MILABENCH = "milabench-scaling-bert"


def _page(url):
    return url.split("#")[0].split(" ")[0]


def _publisher(url):
    """owner (github.com and gist.github.com) or host of a source address."""
    parts = url.split(" ")[0].split("/")
    return parts[3].lower() if parts[2].endswith("github.com") else parts[2].lower()


def _all_urls(doc):
    for source in doc["sources"].values():
        yield source["url"]
        yield from (u.split(" ")[0] for u in source.get("also", []))


def test_rows_from_three_publishers_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 25
    assert sum(1 for r in ROWS if "peak_bytes" in r) == 23
    assert set(DOC["sources"]) == {LLAMA_FACTORY, DS_GIST, MILABENCH}
    used = {_page(u) for doc in EARLIER for u in _all_urls(doc)}
    assert not {_page(u) for u in _all_urls(DOC)} & used
    mine = {_publisher(u) for u in _all_urls(DOC)}
    assert mine == {"hiyouga", "chenyaofo", "mila-iqia"}
    assert not mine & {_publisher(u) for doc in EARLIER for u in _all_urls(doc) if u.startswith("https://")}
    for key in DOC["sources"]:
        assert all(key not in doc["sources"] for doc in EARLIER)


def test_llama_factory_rows_are_single_gpu_qlora_with_two_out_of_memory_verdicts():
    lf = [r for r in ROWS if r["source"] == LLAMA_FACTORY]
    assert len(lf) == 8
    for r in lf:
        s = r["setup"]
        assert (s["quant"], s["quant_type"], s["lora_r"], s["lora_targets"]) == ("4bit", "nf4", 8, ["all-linear"])
        assert (s["world_size"], s["micro_batch"], s["grad_accum"], s["attention"]) == (1, 1, 4, "flash")
        assert r["gpu"] == "A100-SXM-40GB" and s["model"] == "Llama-2-7B"
    ran = sorted((r for r in lf if r["outcome"] == "ran"), key=lambda r: r["setup"]["seq_len"])
    assert [r["value"] for r in ran] == [6, 7, 9, 12, 19, 32]      # the wiki's FlashAttention2 row
    assert [r["setup"]["seq_len"] for r in ran] == [1024, 2048, 4096, 8192, 16384, 32768]
    # everything that fits stays under the 40 GB card; the longer two did not fit
    assert max(r["peak_bytes"] for r in ran) < 40 * 2**30
    assert sorted(r["setup"]["seq_len"] for r in lf if r["outcome"] == "oom") == [65536, 100000]


def test_deepspeed_rows_keep_the_printed_pair_and_read_the_larger_as_the_peak():
    ds = [r for r in ROWS if r["source"] == DS_GIST]
    assert len(ds) == 10 and all(r["outcome"] == "ran" for r in ds)
    for r in ds:
        s = r["setup"]
        assert (s["world_size"], s["seq_len"], s["deepspeed_version"], s["torch_version"]) == (8, 4096, "0.14.2",
                                                                                              "2.2.0")
        assert r["gpu"] == "A800-80GB" and s["zero_stage"] in (2, 3)
        # per-device batch x accumulation x 8 GPUs = the samples per update printed after the slash
        per_update = int(r["id"].split("-u")[1].split("-")[0])
        assert s["micro_batch"] * s["grad_accum"] * 8 == per_update
        first, peak = r["notes"].split("GPU Mem. '")[1].split("'")[0].split("/")
        assert float(peak) == r["value"] and float(first) <= float(peak)
        assert any("footnote" in u for u in r["unknown"])
    by_id = {r["id"].split("/")[1]: r for r in ds}
    # checkpointing halves the ZeRO-2 peak at batch 1; CPU offload of the optimizer lowers it again
    assert by_id["llama-7b-zero2-8xa800-b1-u64-s4096"]["value"] > \
        by_id["llama-7b-zero2-8xa800-b1-u64-s4096-ckpt"]["value"] > \
        by_id["llama-7b-zero2-8xa800-b1-u64-s4096-ckpt-optoff"]["value"]
    offload = by_id["llama-7b-zero3-8xa800-b4-u64-s4096-ckpt-optoff-paramoff"]["setup"]
    assert (offload["offload_optimizer"], offload["offload_params"]) == ("cpu", "cpu")


def test_milabench_rows_are_bert_base_mlm_in_fp32_and_fp16_amp():
    mb = [r for r in ROWS if r["source"] == MILABENCH]
    assert len(mb) == 7 and all(r["outcome"] == "ran" and r["unit"] == "MiB" for r in mb)
    for r in mb:
        s = r["setup"]
        cfg = s["hf_config"]
        assert (cfg["hidden_size"], cfg["num_hidden_layers"], cfg["vocab_size"]) == (768, 12, 30522)
        assert cfg["architectures"] == ["BertForMaskedLM"] and s["seq_len"] == 512
        assert s["precision"] in ("fp32", "amp-fp16") and s["world_size"] == 1
        # the bench never calls zero_grad: the gradients stay allocated between steps
        assert s["zero_grad_keeps"] is True
        # every figure is below the 81,920 MiB the sizer sizes against
        assert r["value"] < 81920
    for precision in ("fp32", "amp-fp16"):
        series = sorted((r["setup"]["micro_batch"], r["value"]) for r in mb if r["setup"]["precision"] == precision)
        assert [v for _, v in series] == sorted(v for _, v in series)   # grows with the batch
    # at the same batch, fp16 autocast holds less than fp32
    fp32 = {r["setup"]["micro_batch"]: r["value"] for r in mb if r["setup"]["precision"] == "fp32"}
    fp16 = {r["setup"]["micro_batch"]: r["value"] for r in mb if r["setup"]["precision"] == "amp-fp16"}
    assert all(fp16[b] < fp32[b] for b in set(fp16) & set(fp32))


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"]
    for url in [source["url"], *source["also"]]:
        if "github.com" in url and "/blob/" in url:
            assert len(url.split("/blob/")[1].split("/")[0]) == 40, "pinned to a commit"
    assert row["split"] == "held-out-14"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    if row["outcome"] == "ran":
        assert row["peak_bytes"] == round(row["value"] * UNIT[row["unit"]])
    else:
        assert row["outcome"] == "oom" and "peak_bytes" not in row
    setup = row["setup"]
    assert setup["torch_version"] and setup["transformers_version"]
    assert setup["mode"] == "train" and setup["seq_len"] and setup["micro_batch"]
