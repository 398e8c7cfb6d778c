"""est55: held-out-12's packed 8,192-token ms-swift LoRA row reads below what its step must hold.

ms-swift b40f31d's ``examples/train/packing/train.sh`` states '# 17.2GiB' (the same comment as the
unpacked ``tuners/lora/train.sh``) for Qwen2-7B-Instruct LoRA with packs of 8,192 tokens. At the end of
that step's forward the bf16 weights, the checkpointed layer inputs and the bf16 logits over every
position are held together; counted by hand from the catalog's shapes they exceed the reserved figure,
so the row is ``not_scored`` and the bench scores neither its error nor its verdict.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import public_accuracy as pa  # noqa: E402

from preflight.estimate import estimate  # noqa: E402

ROW = "ms-swift-3.0-train-examples/qwen2-7b-lora-1gpu-packed-8192-self-cognition"


def _rows() -> list:
    doc = json.loads((REPO / "calibration" / "public" / "heldout12.json").read_text(encoding="utf-8"))
    return doc["rows"]


def test_the_packed_step_holds_more_than_the_reading():
    row = next(r for r in _rows() if r["id"] == ROW)
    s = row["setup"]
    assert s["padding"] == "packed" and s["micro_batch"] == 1 and s["grad_ckpt"] and s["loss"] == "standard"
    cfg, _ = pa._config(s)
    hidden, layers, vocab = int(cfg["hidden_size"]), int(cfg["num_hidden_layers"]), int(cfg["vocab_size"])
    tokens = s["seq_len"]
    inp, _ = pa.estimate_input(s)
    params = int(estimate(inp).params_total)
    weights = params * 2                       # bf16
    ckpt_inputs = layers * tokens * hidden * 2  # one bf16 layer input kept per checkpointed layer
    logits = tokens * vocab * 2                 # bf16 logits over every position
    floor = weights + ckpt_inputs + logits
    assert round(weights / 2 ** 30, 2) == 14.19 and round(ckpt_inputs / 2 ** 30, 2) == 1.53
    assert round(logits / 2 ** 30, 2) == 2.32 and round(floor / 2 ** 30, 2) == 18.04
    assert floor > row["peak_bytes"]
    assert "18.04 GiB" in row["not_scored"]


def test_the_row_counts_for_no_figure_and_its_unpacked_twin_still_does():
    rows = {r["id"]: r for r in _rows()}
    packed = pa.evaluate(rows[ROW])
    assert packed.not_scored and packed.error is None and packed.estimate is not None
    s = pa.summary([packed], "x")
    assert s["measured"] == 0 and s["not_scored"] == [ROW]
    twin = pa.evaluate(rows["ms-swift-3.0-train-examples/qwen2-7b-lora-1gpu-self-cognition"])
    assert not twin.not_scored and twin.error is not None
