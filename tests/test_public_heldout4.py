"""The fourth held-out set (calibration/public/heldout4.json): at least 20 public measured
peaks, every row sourced and complete, from sources no earlier set uses; the facts the
estimator cannot take (no optimizer step, the logits.sum() loss) are kept on the row."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout4.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8"))
           for name in ("devset.json", "heldout2.json", "heldout3.json")]


def test_at_least_20_measured_rows_from_sources_no_earlier_set_uses():
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    assert sum(1 for r in ROWS if "peak_bytes" in r) >= 20
    assert len({r["source"] for r in ROWS}) >= 3
    used = {s["url"].split("#")[0] for doc in EARLIER for s in doc["sources"].values()}
    for key, source in DOC["sources"].items():
        assert all(key not in doc["sources"] for doc in EARLIER)
        assert source["url"].split("#")[0] not in used


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/huggingface/transformers/")
    assert source["versions"]["torch"] and source["setup"]
    assert row["split"] == "held-out-4"
    assert row["measured"] == "max_memory_allocated"
    assert row["outcome"] in ("ran", "oom")
    if row["outcome"] == "oom":
        assert "peak_bytes" not in row
    assert row["notes"], "every row says what was assumed"
    setup = row["setup"]
    assert setup["optimizer_step"] == "none" and setup["loss_fn"] == "logits.sum()"
    assert setup["precision"] == "fp16" and setup["attention"] in ("eager", "sdpa")


def test_every_row_builds_an_estimate_input():
    sys.path.insert(0, str(PUBLIC.parent.parent / "bench"))
    import public_accuracy as pa

    for row in ROWS:
        _inp, unknown = pa.estimate_input(row["setup"])
        # only the two facts the estimator cannot take stay unread
        assert unknown == ["loss_fn", "optimizer_step"], (row["id"], unknown)


def test_the_first_scoring_is_committed_verbatim():
    text = (PUBLIC / "heldout4_first_scoring.txt").read_text(encoding="utf-8")
    assert "FIRST SCORING" in text and "mean |error| 19.6%" in text
    scored = json.loads((PUBLIC / "heldout4_first_scoring.json").read_text(encoding="utf-8"))
    assert scored["split"] == "held-out-4" and scored["preflight"]["measured"] == 81
