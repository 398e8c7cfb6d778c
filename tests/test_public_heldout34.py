"""The thirty-fourth held-out set (calibration/public/heldout34.json): 27 public rows from four publishers no earlier
split read: three more Stanford CS336 students' assignment-2 memory answers (the 2.7B / xl course-shaped model as
their own or the course's code, no-grad forward passes and AdamW training steps in fp32 and bf16 autocast, on two
H100s and a B200) and a framework author's peak-memory experiment (a 1.6B ALiBi DeepNet decoder with Adafactor on an
RTX 4090: checkpointing, the optimizer fused into the backward, torch.compile, bf16 weights); every row sourced, the
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
DOC = json.loads((PUBLIC / "heldout34.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 34)))]
TG = "cs336-tianqguo-2p7b-h100"
TZ = "cs336-tobinzuo-xl-user-adapters-h100"
CD = "cs336-csdiywithme-xl-b200"
FG = "forgather-deepone-1p6b-rtx4090"
#: TianqGuo's peak_memory_summary.txt / mixed_precision_memory_summary.txt ("MB" = MiB): (mode, precision, ctx) -> figure
PRINTED_TIANQGUO = {("infer", "fp32", 128): 13287.89, ("infer", "fp32", 256): 13457.46,
                    ("infer", "fp32", 512): 14010.65, ("train", "fp32", 128): 65577.08,
                    ("train", "fp32", 256): 65408.06, ("train", "fp32", 512): 69459.53,
                    ("infer", "amp-bf16", 512): 19973.40, ("train", "amp-bf16", 512): 66524.90}
#: TobinZuo's memory_profile_results.csv peak_allocated_bytes: (mode, precision, ctx) -> bytes
PRINTED_TOBINZUO = {("infer", "fp32", 128): 13770901504, ("infer", "amp-bf16", 128): 13776144384,
                    ("train", "fp32", 128): 54785786368, ("train", "amp-bf16", 128): 54785786368,
                    ("infer", "fp32", 2048): 22675548160, ("infer", "amp-bf16", 2048): 20402235392}
#: forgather's README table, Peak Memory (GiB): (precision, grad_ckpt, optimizer_in_backward, compiled) -> figure
PRINTED_FORGATHER = {("fp32", False, False, False): 21.165, ("fp32", True, False, False): 12.529,
                     ("fp32", False, False, True): 19.712, ("fp32", False, True, False): 21.164,
                     ("fp32", True, True, False): 7.425, ("bf16", False, True, False): 12.418,
                     ("bf16", True, True, False): 3.975}
_URL = re.compile(r"https?://[^\s'\"\)\]<>,`]+")


def _rows(*sources):
    return [r for r in ROWS if r["source"] in sources]


def _publishers_cited_under_calibration_and_bench() -> set:
    """Every GitHub owner / host cited by a URL in any file under calibration/public and bench, except this split's
    own builder and files."""
    found = set()
    for root in (PUBLIC, REPO / "bench"):
        for path in root.rglob("*"):
            if not path.is_file() or path.name in ("heldout34.json", "build_heldout34.py") \
                    or path.name.startswith("heldout34_") or path.suffix not in (".py", ".json", ".md", ".txt"):
                continue
            for url in _URL.findall(path.read_text(encoding="utf-8", errors="replace")):
                parts = url.split("/")
                if len(parts) > 3 and (parts[2].endswith("github.com") or "." in parts[2]):
                    found.add(publisher(url))
    return found


def test_four_publishers_no_earlier_split_read_none_over_half():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 27
    assert Counter(r["outcome"] for r in ROWS) == {"ran": 23, "oom": 4}
    assert all(r.get("peak_bytes") for r in ROWS if r["outcome"] == "ran")
    per_publisher = Counter(publisher(DOC["sources"][r["source"]]["url"]) for r in ROWS)
    assert per_publisher == {"tianqguo": 8, "tobinzuo": 8, "csdiywithme": 4, "jdinalt": 7}
    assert max(per_publisher.values()) * 2 < len(ROWS), per_publisher
    used_pages = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used_pages
    earlier_publishers = {publisher(u) for doc in EARLIER for u in all_urls(doc) if u.startswith("http")}
    assert not set(per_publisher) & earlier_publishers
    # stricter than the earlier splits' sources: no URL anywhere under calibration/public or bench names them
    assert not set(per_publisher) & _publishers_cited_under_calibration_and_bench()


def test_nineteen_training_rows_on_catalogued_gpus():
    train = [r for r in ROWS if r["setup"]["mode"] == "train"]
    assert len(train) == 19
    assert Counter(r["setup"]["mode"] for r in ROWS) == {"train": 19, "infer": 8}
    assert Counter(r["setup"]["optimizer"] for r in train) == {"adamw": 12, "adafactor": 7}
    names = {g["name"] for g in json.loads((REPO / "hardware" / "gpus.json").read_text(encoding="utf-8"))["gpus"]}
    assert {r["gpu"] for r in ROWS} == {"H100-SXM-80GB", "B200-180GB", "RTX-4090-24GB"}
    assert {r["gpu"] for r in ROWS} <= names
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    # every field a row sets is one the estimator reads
    for r in ROWS:
        _, unread = pa.estimate_input(r["setup"])
        assert not unread, (r["id"], unread)


@pytest.mark.parametrize("row", _rows(TG, TZ, CD), ids=[r["id"] for r in _rows(TG, TZ, CD)])
def test_the_cs336_model_is_written_as_its_llama_shapes(row):
    s = row["setup"]
    cfg = s["hf_config"]
    assert (cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"], cfg["num_attention_heads"],
            cfg["num_key_value_heads"]) == (2560, 10240, 32, 32, 32)
    assert (cfg["vocab_size"], cfg["tie_word_embeddings"], cfg["hidden_act"]) == (10000, False, "silu")
    assert cfg["max_position_embeddings"] == s["seq_len"]
    assert (s["attention"], s["padding"], s["micro_batch"]) == ("eager", "max_length", 4)
    assert s["python_ops"] == ["softmax", "silu"]


def test_the_tianqguo_rows_are_the_printed_mib_tables():
    got = {}
    for r in _rows(TG):
        s = r["setup"]
        assert (r["measured"], r["unit"], r["gpu"], s["torch_version"]) == (
            "max_memory_allocated", "MiB", "H100-SXM-80GB", "2.6.0")
        assert r["peak_bytes"] == round(r["value"] * 2**20)
        assert f"{r['value']:.2f}" in r["notes"]
        if s["mode"] == "train":
            # loss = logits.sum() and torch.optim.AdamW with its CUDA default (foreach)
            assert (s["loss"], s["foreach"]) == ("logits", True)
        got[(s["mode"], s["precision"], s["seq_len"])] = r["value"]
    assert got == PRINTED_TIANQGUO
    # as printed: a training step holds the AdamW state (~4x the weights); the no-grad forward about the weights
    assert all(got[("train", "fp32", c)] > 4 * got[("infer", "fp32", c)] for c in (128, 256, 512))


def test_the_tobinzuo_rows_are_the_csv_bytes_and_the_two_ooms():
    got, oom = {}, []
    for r in _rows(TZ):
        s = r["setup"]
        assert (r["gpu"], s["torch_version"], s["expandable_segments"]) == ("H100-SXM-80GB", "2.5.1", True)
        key = (s["mode"], s["precision"], s["seq_len"])
        if r["outcome"] == "oom":
            oom.append(key)
            assert "total capacity of 79.11 GiB" in r["notes"]
            continue
        assert (r["measured"], r["unit"]) == ("max_memory_allocated", "MiB")
        assert str(r["peak_bytes"]) in r["notes"]
        got[key] = r["peak_bytes"]
    assert got == PRINTED_TOBINZUO
    assert sorted(oom) == [("train", "amp-bf16", 2048), ("train", "fp32", 2048)]
    assert all(r["setup"]["foreach"] is False for r in _rows(TZ) if r["setup"]["mode"] == "train")


def test_the_csdiywithme_rows_are_the_b200_table():
    peaks, oom = {}, []
    for r in _rows(CD):
        s = r["setup"]
        assert (r["gpu"], s["torch_version"], s["mode"], s["foreach"]) == ("B200-180GB", "2.11.0", "train", False)
        if r["outcome"] == "oom":
            oom.append((s["precision"], s["seq_len"]))
            continue
        assert (r["measured"], r["unit"]) == ("max_memory_allocated", "GiB")
        assert f"| {r['value']:.3f} |" in r["notes"]
        peaks[(s["precision"], s["seq_len"])] = r["value"]
    assert peaks == {("fp32", 128): 51.415, ("amp-bf16", 128): 51.405}
    assert sorted(oom) == [("amp-bf16", 2048), ("fp32", 2048)]


def test_the_forgather_rows_are_the_readme_table():
    got = {}
    for r in _rows(FG):
        s = r["setup"]
        assert (r["measured"], r["unit"], r["gpu"]) == ("max_memory_allocated", "GiB", "RTX-4090-24GB")
        assert (s["optimizer"], s["micro_batch"], s["seq_len"], s["torch_version"]) == ("adafactor", 4, 768, "2.8.0")
        cfg = s["hf_config"]
        assert (cfg["hidden_size"], cfg["num_hidden_layers"], cfg["num_attention_heads"], cfg["intermediate_size"],
                cfg["vocab_size"], cfg["hidden_act"]) == (2048, 32, 16, 5400, 8000, "relu")
        assert f"| {r['value']:.3f} |" in r["notes"]
        got[(s["precision"], s["grad_ckpt"], s.get("optimizer_in_backward", False), s.get("compiled", False))] = \
            r["value"]
    assert got == PRINTED_FORGATHER


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and source["setup"] and source["versions"]
    assert re.search(r"/blob/[0-9a-f]{40}/", source["url"]), "every page pinned to a commit"
    assert all(re.search(r"/blob/[0-9a-f]{40}/", u) for u in source.get("also", []))
    assert source["date"] and source["project"]
    assert row["split"] == "held-out-34"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["setup"]["torch_version"] and row["setup"]["micro_batch"] and row["setup"]["seq_len"]


def test_the_split_is_registered_in_the_bench():
    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-34"] == REPO / "calibration" / "public" / "heldout34.json"
    assert "--split held-out-34" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
