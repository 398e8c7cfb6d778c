"""est96's grouping of the held-out pool: every grouping partitions the peaks, and the groups' contributions add up
to the pooled signed error (what the lead reads the 'contrib' column as)."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "calibration" / "public"))
sys.path.insert(0, str(REPO / "bench"))

import est96_groups as g  # noqa: E402


def _rec(split, source, error, params, measured="max_memory_allocated", **setup):
    return {"id": f"{source}/{error}", "split": split, "source": source, "setup": setup, "measured": measured,
            "error": error, "inside": abs(error) < 0.1, "params": params, "deficit": 0.0, "gib": 1.0}


RECS = [
    _rec("held-out-3", "a", -0.20, 7e9, precision="bf16", lora_r=8, quant="4bit", fsdp="full", world_size=2,
         offload_params=True),
    _rec("held-out-31", "b", -0.02, 3.4e9, precision="fp32", foreach=False),
    _rec("held-out-32", "b", +0.04, 3.4e9, "nvidia-smi", precision="amp-bf16", zero_stage=2, world_size=2),
    _rec("held-out-45", "c", -0.10, 1.2e8, "memory_reserved", precision="fp16", mode="generate"),
]


def test_each_grouping_partitions_the_pool_and_its_contributions_sum_to_the_pooled_signed_error():
    pooled = sum(r["error"] for r in RECS) / len(RECS)
    for key in g.KEYS:
        groups = g.grouped(RECS, [key])
        assert sum(len(v) for v in groups.values()) == len(RECS), key
        assert abs(sum(sum(r["error"] for r in v) / len(RECS) for v in groups.values()) - pooled) < 1e-12
        # most negative contribution first
        sums = [sum(r["error"] for r in v) for v in groups.values()]
        assert sums == sorted(sums), key


def test_the_regime_labels():
    a, b, c, d = RECS
    assert (g._size(a), g._tuning(a), g._precision(a), g._sharding(a)) == ("1-10B", "QLoRA (4-bit)", "pure bf16",
                                                                           "FSDP + offload")
    assert (g._half(b), g._half(c), g._half(a)) == ("held-out-31..45 odd (check)", "held-out-31..45 even (choose)",
                                                    "held-out .. held-out-30")
    assert (g._measured(b), g._sharding(c), g._precision(c)) == ("allocated", "ZeRO-2", "AMP (bf16)")
    assert (g._size(d), g._tuning(d), g._sharding(b)) == ("< 1B", "no training", "one GPU")
    line = g._line("x", [b, c], len(RECS))
    assert "+1.00%" in line      # mean signed of +0.04 and -0.02
    assert "+0.50%" in line      # their share of the pool: (+0.04 - 0.02) / 4
