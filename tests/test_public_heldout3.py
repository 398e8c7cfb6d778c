"""The third held-out set (calibration/public/heldout3.json): at least 20 public measured
peaks, every row sourced and complete, from sources neither devset.json nor heldout2.json
uses, every row expressible by the estimator (its model read, every setup field known)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout3.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
EARLIER = [json.loads((PUBLIC / name).read_text(encoding="utf-8")) for name in ("devset.json", "heldout2.json")]


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
    from preflight import hardware

    source = DOC["sources"][row["source"]]
    assert source["url"].startswith("https://github.com/") and "/blob/" in source["url"]
    assert row["split"] == "held-out-3"
    assert row["measured"] in ("max_memory_allocated", "allocated+context")
    assert row["outcome"] in ("ran", "oom")
    assert (row["outcome"] == "oom") == ("peak_bytes" not in row)
    assert hardware.find(row["gpu"]) is not None
    assert row["notes"], "every row says what was assumed"
    setup = row["setup"]
    assert ("model" in setup) != ("hf_config" in setup)
    assert setup["mode"] in ("train", "generate")
    assert setup["seq_len"] > 0 and setup["precision"] and setup["micro_batch"] >= 1
    if setup["mode"] == "train":
        assert "grad_ckpt" in setup and "optimizer" in setup and "world_size" in setup


def test_every_row_builds_an_estimate_input():
    sys.path.insert(0, str(PUBLIC.parent.parent / "bench"))
    import public_accuracy as pa

    for row in ROWS:
        _inp, unknown = pa.estimate_input(row["setup"])
        assert unknown == [], (row["id"], unknown)


def test_the_first_scoring_is_committed_verbatim():
    text = (PUBLIC / "heldout3_first_scoring.txt").read_text(encoding="utf-8")
    assert "FIRST SCORING" in text and "mean |error| 10.6%" in text
    scored = json.loads((PUBLIC / "heldout3_first_scoring.json").read_text(encoding="utf-8"))
    assert scored["split"] == "held-out-3" and scored["preflight"]["measured"] == 29
