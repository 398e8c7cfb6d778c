"""bench/regime_errors.py: every scored public row's signed error by regime (est53, issue 17)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import public_accuracy as pa
import regime_errors as re_

GIB = 2 ** 30


def _regimes(setup, model_type="llama", family="decoder"):
    facts = {"type": model_type, "family": family}
    return {name for name, pred in re_.REGIMES if pred(setup, facts)}


def test_a_row_falls_into_every_regime_its_setup_states():
    qlora_fsdp = {"mode": "train", "quant": "4bit", "lora_r": 64, "fsdp": "full", "world_size": 2,
                  "seq_len": 8192, "micro_batch": 1, "grad_ckpt": True, "precision": "bf16",
                  "optimizer": "adamw", "loss": "standard", "attention": "flash"}
    got = _regimes(qlora_fsdp)
    assert {"QLoRA (4-bit base)", "FSDP", "long sequence (>= 4k tokens)", "micro-batch 1",
            "gradient checkpointing on", "pure bf16", "AdamW (any)", "decoder LM",
            "loss: standard (HF cross-entropy)", "attention flash"} <= got
    # a 4-bit base is not a 16-bit LoRA, a sharded job is not DDP, nor a one-GPU job
    assert not got & {"LoRA, 16-bit base", "full fine-tune (train, no LoRA)",
                      "DDP / single copy, world size > 1", "one GPU", "gradient checkpointing off"}
    generation = {"mode": "generate", "seq_len": 1024, "micro_batch": 16, "precision": "bf16"}
    got = _regimes(generation)
    assert "inference / generation" in got and "micro-batch >= 8" in got
    # a generation row has no checkpointing regime and no optimizer
    assert not got & {"gradient checkpointing off", "AdamW (any)", "full fine-tune (train, no LoRA)"}
    mlm = {"mode": "train", "precision": "amp-fp16", "optimizer": "adamw", "seq_len": 512}
    assert "encoder (BERT family)" in _regimes(mlm, "bert", "encoder")
    assert "seq2seq (encoder-decoder)" in _regimes(mlm, "t5", "encoder-decoder")


def _rec(source, error, measured="max_memory_allocated", world=1, deficit=0):
    return {"id": f"{source}/{error}", "split": "x", "source": source, "measured": measured,
            "error": error, "inside": abs(error) < 0.1, "deficit": deficit,
            "setup": {"mode": "train", "world_size": world}, "facts": {"type": "", "family": ""}}


def test_stats_weigh_each_source_once_in_the_per_source_mean():
    recs = [_rec("a", -0.1), _rec("a", -0.1), _rec("a", -0.1), _rec("b", 0.2)]
    s = re_._stats(recs)
    assert s["rows"] == 4 and s["sources"] == 2
    assert s["signed"] == pytest.approx((-0.3 + 0.2) / 4)        # -2.5%, row-weighted
    assert s["by_source"] == pytest.approx((-0.1 + 0.2) / 2)     # +5%, each source once
    assert s["median"] == pytest.approx(-0.1)
    assert s["mae"] == pytest.approx(0.5 / 4)
    assert s["under10"] == 0 and s["over10"] == pytest.approx(0.25)   # -10% is not under -10%
    assert s["inside"] == pytest.approx(0.0)


def test_by_measured_and_deficits_split_tensor_from_cache_readings():
    recs = [_rec("a", 0.0, deficit=0), _rec("b", -0.2, "memory_reserved", deficit=2 * GIB),
            _rec("c", -0.1, "memory_reserved", world=4, deficit=GIB),
            _rec("d", -0.3, "nvidia-smi", world=4, deficit=3 * GIB),
            _rec("e", -0.02, "peak_memory_active", deficit=GIB // 4)]
    rows = dict(re_.by_measured(recs))
    allocated, reserved, driver = rows["all scored rows"]
    assert allocated["rows"] == 2 and allocated["signed"] == pytest.approx(-0.01)
    assert reserved["rows"] == 2 and reserved["median"] == pytest.approx(-0.15)
    assert driver["rows"] == 1 and driver["sources"] == 1
    assert rows["one GPU"][2] is None              # no one-GPU nvidia-smi row
    ladder = {(label, where): (n, gib) for label, where, n, gib in re_.deficits(recs)}
    assert ladder[("allocated", "one GPU")] == (2, pytest.approx(0.125))
    assert ladder[("reserved", "one GPU")] == (1, pytest.approx(2.0))
    assert ladder[("reserved", "more than one GPU")] == (1, pytest.approx(1.0))
    assert ("allocated", "more than one GPU") not in ladder


def test_the_scored_rows_are_the_ones_public_accuracy_scores():
    recs = re_.scored_rows()
    by_split = {}
    for r in recs:
        by_split[r["split"]] = by_split.get(r["split"], 0) + 1
    for split in ("fit", "held-out-4", "held-out-22"):
        path = pa.SPLIT_FILES.get(split, pa.DEVSET)
        results = [pa.evaluate(r) for r in pa.load(path)["rows"] if r["split"] == split]
        summary = pa.summary(results, split)
        assert by_split[split] == summary["measured"]
    # no card-full reading and no not-scored row carries an error
    held22 = pa.load(pa.SPLIT_FILES["held-out-22"])["rows"]
    not_scored = {r["id"] for r in held22 if r.get("not_scored")}
    assert not_scored and not not_scored & {r["id"] for r in recs}
    # the deficit is the measured peak less the estimate: -error x the measured peak
    peaks = {r["id"]: r["peak_bytes"] for r in held22 if r.get("peak_bytes")}
    checked = [r for r in recs if r["id"] in peaks]
    assert checked
    for r in checked:
        assert r["deficit"] == pytest.approx(-r["error"] * peaks[r["id"]], abs=2)
