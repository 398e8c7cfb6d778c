"""The thirty-third held-out set (calibration/public/heldout33.json): 23 public rows from four publishers no earlier
split read: three Stanford CS336 students' assignment-2 memory answers (the course's BasicsTransformerLM trained with
the course AdamW in fp32 and bf16 autocast, per-block checkpointing, no-grad forward passes) and a LoRA write-up
(Llama-3.2-1B classification LoRA in fp32 on an A10, and its full fine-tune out of memory); every row sourced, the
source's printed figure kept, and what the source leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout33.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 33)))]
DA = "cs336-duoan-basics-lm-rtxpro6000"
ED = "cs336-enzoding-basics-lm-xl-a800"
DK = "cs336-damek-basics-lm-2p7b-forward"
SG = "lora-experiments-llama32-1b-imdb-a10"
#: the course model's shapes by size (d_model, d_ff, layers, heads), as duoan's MODEL_CONFIGS prints them
SIZES = {"small": (768, 3072, 12, 12), "medium": (1024, 4096, 24, 16), "large": (1280, 5120, 36, 20),
         "xl": (2560, 10240, 32, 32)}
#: duoan's printed peaks (GiB): (size, precision, batch, ctx, grad_ckpt, mode) -> figure
PRINTED_DUOAN = {("small", "fp32", 4, 512, False, "train"): 5.04, ("medium", "fp32", 4, 512, False, "train"): 13.72,
                 ("large", "fp32", 4, 512, False, "train"): 27.49, ("xl", "fp32", 4, 512, False, "train"): 65.54,
                 ("xl", "fp32", 4, 128, False, "train"): 51.42, ("xl", "amp-bf16", 4, 128, False, "train"): 51.41,
                 ("xl", "fp32", 1, 2048, False, "train"): 91.16, ("xl", "amp-bf16", 1, 2048, False, "train"): 82.49,
                 ("xl", "fp32", 4, 2048, True, "train"): 63.60, ("xl", "fp32", 4, 2048, False, "infer"): 21.60}
#: EnzoDing's reports/memory-profiling.md, full training step (GiB): (precision, ctx) -> figure
PRINTED_ENZODING = {("fp32", 128): 51.416, ("fp32", 512): 65.538, ("amp-bf16", 128): 51.406,
                    ("amp-bf16", 512): 62.674}
#: damek's memory_viz_report.md forward pass under no_grad ("GB" read as GiB): (precision, ctx) -> figure
PRINTED_DAMEK = {("fp32", 128): 12.90, ("fp32", 256): 13.00, ("fp32", 512): 13.42,
                 ("amp-bf16", 128): 19.18, ("amp-bf16", 256): 19.24, ("amp-bf16", 512): 19.38}
_URL = re.compile(r"https?://[^\s'\"\)\]<>,`]+")


def _rows(*sources):
    return [r for r in ROWS if r["source"] in sources]


def _publishers_cited_under_calibration_and_bench() -> set:
    """Every GitHub owner / host cited by a URL in any file under calibration/public and bench, except this split's
    own builder and files."""
    found = set()
    for root in (PUBLIC, REPO / "bench"):
        for path in root.rglob("*"):
            if not path.is_file() or path.name in ("heldout33.json", "build_heldout33.py") \
                    or path.name.startswith("heldout33_") or path.suffix not in (".py", ".json", ".md", ".txt"):
                continue
            for url in _URL.findall(path.read_text(encoding="utf-8", errors="replace")):
                parts = url.split("/")
                if len(parts) > 3 and (parts[2].endswith("github.com") or "." in parts[2]):
                    found.add(publisher(url))
    return found


def test_four_publishers_no_earlier_split_read_none_over_half():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 23
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 21, "oom": 2}
    assert all(r.get("peak_bytes") for r in ROWS if r["outcome"] == "ran")
    per_publisher = Counter(publisher(DOC["sources"][r["source"]]["url"]) for r in ROWS)
    assert per_publisher == {"duoan": 11, "enzoding-rgb": 4, "damek": 6, "sagarsrc": 2}
    assert max(per_publisher.values()) * 2 < len(ROWS), per_publisher
    used_pages = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used_pages
    earlier_publishers = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("http")}
    assert not set(per_publisher) & earlier_publishers
    # stricter than the earlier splits' sources: no URL anywhere under calibration/public or bench names them
    assert not set(per_publisher) & _publishers_cited_under_calibration_and_bench()


def test_sixteen_training_rows_and_the_rows_torch_preflight_can_be_asked_about():
    train = [r for r in ROWS if r["setup"]["mode"] == "train"]
    assert len(train) == 16
    assert all(r["setup"]["optimizer"] == "adamw" for r in train)
    assert Counter(r["setup"]["mode"] for r in ROWS) == {"train": 16, "infer": 7}
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    expressible = [r for r in ROWS if pa.tp_expressible(r["setup"])]
    # every row but the LoRA one: the course model's causal-LM shapes (inline LlamaForCausalLM) and the full fine-tune
    assert len(expressible) == 22
    assert [r["id"] for r in ROWS if r not in expressible] == [f"{SG}/llama32-1b-cls-lora-r16-all-proj-fp32-b16-s256"]
    causal = [r for r in expressible if r["setup"].get("hf_config", {}).get("architectures") == ["LlamaForCausalLM"]]
    assert len(causal) == 21


@pytest.mark.parametrize("row", _rows(DA, ED, DK), ids=[r["id"] for r in _rows(DA, ED, DK)])
def test_the_course_model_is_written_as_its_llama_shapes(row):
    s = row["setup"]
    size = s["model_name"].split("-")[-1]
    d, ff, n, h = SIZES[size]
    cfg = s["hf_config"]
    assert (cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"], cfg["num_attention_heads"],
            cfg["num_key_value_heads"]) == (d, ff, n, h, h)
    assert (cfg["vocab_size"], cfg["tie_word_embeddings"], cfg["hidden_act"]) == (10000, False, "silu")
    assert cfg["max_position_embeddings"] == s["seq_len"]
    assert (s["attention"], s["loss"], s["foreach"], s["padding"]) == ("eager", "standard", False, "max_length")


def test_the_duoan_rows_are_the_printed_peaks_and_the_oom():
    got, oom = {}, []
    for r in _rows(DA):
        s = r["setup"]
        assert r["gpu"] == "GH200-96GB" and s["torch_version"] == "2.11.0"
        key = (s["model_name"].split("-")[-1], s["precision"], s["micro_batch"], s["seq_len"], s["grad_ckpt"],
               s["mode"])
        if r["outcome"] == "oom":
            oom.append(key)
            continue
        assert (r["measured"], r["unit"]) == ("max_memory_allocated", "GiB")
        assert r["peak_bytes"] == round(r["value"] * 2**30)
        assert f"{r['value']:.2f}" in r["notes"]
        got[key] = r["value"]
    assert got == PRINTED_DUOAN
    assert oom == [("xl", "fp32", 4, 2048, False, "train")]
    # as printed: per-block checkpointing brings the OOM setting under the card; bf16 saves at long context
    assert got[("xl", "amp-bf16", 1, 2048, False, "train")] < got[("xl", "fp32", 1, 2048, False, "train")]


def test_the_enzoding_rows_are_the_report_tables():
    got = {}
    for r in _rows(ED):
        s = r["setup"]
        assert (r["measured"], r["unit"], r["gpu"]) == ("max_memory_allocated", "GiB", "A800-80GB")
        assert (s["mode"], s["micro_batch"], s["model_name"]) == ("train", 4, "cs336-basics-xl")
        assert f"{r['value']:.3f} |" in r["notes"]
        got[(s["precision"], s["seq_len"])] = r["value"]
    assert got == PRINTED_ENZODING
    # the same setting as duoan's xl rows, printed to the same 0.01 GiB by another student on another GPU
    assert round(got[("fp32", 128)], 2) == PRINTED_DUOAN[("xl", "fp32", 4, 128, False, "train")]
    assert round(got[("fp32", 512)], 2) == PRINTED_DUOAN[("xl", "fp32", 4, 512, False, "train")]


def test_the_damek_rows_are_no_grad_forward_passes_read_as_gib():
    got = {}
    for r in _rows(DK):
        s = r["setup"]
        assert (r["measured"], r["unit"], r["gpu"]) == ("peak_memory_active", "GiB", "H100-SXM-80GB")
        assert (s["mode"], s["micro_batch"], s["model_name"]) == ("infer", 4, "cs336-basics-xl")
        assert f"| {s['seq_len']}           | {r['value']:.2f} GB" in r["notes"]
        got[(s["precision"], s["seq_len"])] = r["value"]
    assert got == PRINTED_DAMEK
    # the unit: the fp32 figure sits between the fp32 weights in GiB and in GB (3,406,809,600 parameters)
    weights = 3_406_809_600 * 4
    assert weights / 2**30 < got[("fp32", 128)] < weights / 1e9


def test_the_lora_rows_are_the_json_peak_and_the_quoted_oom():
    lora, full = _rows(SG)
    assert lora["outcome"] == "ran" and full["outcome"] == "oom"
    assert (lora["measured"], lora["unit"], lora["gpu"]) == ("max_memory_allocated", "GiB", "A10-24GB")
    assert lora["value"] == 20.571515560150146 and '"peak_memory_gb": 20.571515560150146' in lora["notes"]
    s = lora["setup"]
    assert (s["model"], s["task"], s["precision"], s["micro_batch"], s["seq_len"], s["lora_r"]) == (
        "Llama-3.2-1B", "sequence-classification", "fp32", 16, 256, 16)
    assert s["lora_targets"] == ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    f = full["setup"]
    assert "lora_r" not in f and f["micro_batch"] == 2 and full["gpu"] == "A10-24GB"
    assert "total capacity of 22.07 GiB" in full["notes"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert re.search(r"/blob/[0-9a-f]{40}/", source["url"]), "every page pinned to a commit"
    assert all(re.search(r"/blob/[0-9a-f]{40}/", u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-33"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-33"] == REPO / "calibration" / "public" / "heldout33.json"
    assert "--split held-out-33" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
