"""The twenty-fourth held-out set (calibration/public/heldout24.json): 12 public rows from a page no earlier split
read: ELECTRA's base generator and base discriminator trained with a masked-LM head in pure fp16 on a Tesla T4 under
eager and SDPA attention (transformers PR #37106's SDPA training benchmark); every row sourced, the source's printed
figure kept, and what the source leaves open recorded as unknown. Nothing here runs the estimator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from public_split_helpers import all_urls, page, publisher

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout24.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", *(f"heldout{i}.json" for i in range(2, 24)))]
ELECTRA = "transformers-electra-sdpa-pr-37106"
#: the PR's model page, 'Training Benchmark': (checkpoint, batch, length, attention) -> peak mem (MB)
PRINTED = {
    ("google/electra-base-generator", 8, 256, "eager"): 947.451,
    ("google/electra-base-generator", 8, 256, "sdpa"): 821.915,
    ("google/electra-base-generator", 16, 128, "eager"): 884.536,
    ("google/electra-base-generator", 16, 128, "sdpa"): 821.915,
    ("google/electra-base-generator", 16, 256, "eager"): 1804.67,
    ("google/electra-base-generator", 16, 256, "sdpa"): 1553.798,
    ("google/electra-base-discriminator", 8, 256, "eager"): 1798.541,
    ("google/electra-base-discriminator", 8, 256, "sdpa"): 1418.122,
    ("google/electra-base-discriminator", 16, 128, "eager"): 1605.603,
    ("google/electra-base-discriminator", 16, 128, "sdpa"): 1415.605,
    ("google/electra-base-discriminator", 16, 256, "eager"): 3318.753,
    ("google/electra-base-discriminator", 16, 256, "sdpa"): 2564.827,
}


def test_a_page_no_earlier_split_read():
    assert len({r["id"] for r in ROWS}) == len(ROWS) == 12
    assert sum(1 for r in ROWS if r.get("peak_bytes")) == 12
    assert set(DOC["sources"]) == {ELECTRA}
    used = {page(u) for doc in EARLIER for u in all_urls(doc)}
    assert not {page(u) for u in all_urls(DOC)} & used
    # the PR's publisher is not new (transformers' SDPA pull requests: held-out-4/5/7/23); the PR page and the
    # author's gists are
    assert {publisher(u) for u in all_urls(DOC)} == {"huggingface", "nnilayy"}
    for doc in EARLIER:
        assert ELECTRA not in doc["sources"]


def test_every_row_is_one_cell_of_the_training_table():
    got = {(r["setup"]["model_name"], r["setup"]["micro_batch"], r["setup"]["seq_len"], r["setup"]["attention"]): r
           for r in ROWS}
    assert set(got) == set(PRINTED) and len(ROWS) == len(PRINTED)
    for key, row in got.items():
        assert (row["value"], row["unit"], row["measured"], row["gpu"]) == (PRINTED[key], "MB", "max_memory_allocated",
                                                                             "T4-16GB")
        assert f"{PRINTED[key]}" in row["notes"]
        s = row["setup"]
        # is_half True: pure fp16 weights; fxmarty's harness (held-out-4's encoding): no optimizer step, the logits'
        # sum as the loss, the output object kept at loop level
        assert (s["mode"], s["precision"], s["optimizer"], s["loss"], s["keeps_outputs"]) == (
            "train", "fp16", "sgd", "logits", True)
        assert s["micro_batch"] * s["seq_len"] >= 2048, "only the cells of >= 2,048 tokens were taken"
        assert s["hf_config"]["model_type"] == "electra"
        assert s["hf_config"]["architectures"] == ["ElectraForMaskedLM"]


def test_the_two_checkpoints_differ_only_in_their_encoder_width():
    configs = {r["setup"]["model_name"]: r["setup"]["hf_config"] for r in ROWS}
    gen, disc = configs["google/electra-base-generator"], configs["google/electra-base-discriminator"]
    assert (disc["hidden_size"], disc["num_attention_heads"], disc["intermediate_size"]) == (768, 12, 3072)
    assert (gen["hidden_size"], gen["num_attention_heads"], gen["intermediate_size"]) == (256, 4, 1024)
    assert {k: v for k, v in gen.items() if k not in ("hidden_size", "num_attention_heads", "intermediate_size")} == \
        {k: v for k, v in disc.items() if k not in ("hidden_size", "num_attention_heads", "intermediate_size")}
    assert gen["embedding_size"] == 768 and gen["vocab_size"] == 30522


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://") and source["setup"] and source["versions"] and source["date"]
    assert "/pull/" in source["url"]
    assert all(u.startswith("https://gist.github.com/nnilayy/") for u in source["also"])
    assert row["split"] == "held-out-24" and row["outcome"] == "ran"
    assert row["notes"] and row["unknown"], "every row says what was read and what is open"
    assert row["peak_bytes"] == round(row["value"] * 10**6)
    setup = row["setup"]
    assert setup["torch_version"] == "2.5.1" and setup["world_size"] == 1
    assert setup["micro_batch"] and setup["seq_len"]


def test_the_split_is_registered_in_the_bench():
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import public_accuracy as pa

    assert pa.SPLIT_FILES["held-out-24"] == REPO / "calibration" / "public" / "heldout24.json"
    assert "--split held-out-24" in (REPO / "bench" / "public_splits.py").read_text(encoding="utf-8")
