"""The second held-out set (calibration/public/heldout2.json): at least 25 public measured
peaks, every row sourced and complete, from sources devset.json does not use, every row
expressible by the estimator (its model read, every setup field known)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

PUBLIC = Path(__file__).resolve().parent.parent / "calibration" / "public"
DOC = json.loads((PUBLIC / "heldout2.json").read_text(encoding="utf-8"))
ROWS = DOC["rows"]
DEVSET = json.loads((PUBLIC / "devset.json").read_text(encoding="utf-8"))


def test_at_least_25_rows_from_sources_not_in_the_dev_set():
    assert len(ROWS) >= 25 and len({r["id"] for r in ROWS}) == len(ROWS)
    assert len({r["source"] for r in ROWS}) >= 4
    used = {s["url"].split("#")[0] for s in DEVSET["sources"].values()}
    for key, source in DOC["sources"].items():
        assert key not in DEVSET["sources"]
        assert source["url"].split("#")[0] not in used


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_is_sourced_and_complete(row):
    from preflight import hardware

    source = DOC["sources"][row["source"]]
    assert (source["url"].startswith("https://github.com/") and "/blob/" in source["url"]) \
        or source["url"].startswith("https://github.com/huggingface/transformers/issues/")
    assert row["split"] == "held-out-2"
    assert row["measured"] in ("max_memory_allocated", "memory_reserved", "nvidia-smi")
    assert row["outcome"] in ("ran", "oom")
    assert (row["outcome"] == "oom") == ("peak_bytes" not in row)
    assert hardware.find(row["gpu"]) is not None
    assert row["notes"], "every row says what was assumed"
    setup = row["setup"]
    assert ("model" in setup) != ("hf_config" in setup)
    assert setup["mode"] in ("train", "infer", "generate")
    assert setup.get("seq_len", 0) > 0 or setup.get("image_size", 0) > 0


def test_every_row_builds_an_estimate_input():
    sys.path.insert(0, str(PUBLIC.parent.parent / "bench"))
    import public_accuracy as pa

    for row in ROWS:
        _inp, unknown = pa.estimate_input(row["setup"])
        assert unknown == [], (row["id"], unknown)
