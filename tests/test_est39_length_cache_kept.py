"""est39: the part of the cache of other batch lengths that the allocator cannot give back before an
out-of-memory error (``release_cached_blocks`` frees only wholly free segments) is counted by the
verdict. ``constants.LENGTH_CACHE_KEPT`` is re-derived here from the simulator's grid
(``calibration/data/length_cache_kept.json``, ``calibration/length_cache_kept.py``) and the verdict's
share is recomputed by hand from the estimate's own terms."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from types import SimpleNamespace

from preflight.cli import main
from preflight.estimate import EstimateInput, estimate, verdict
from preflight.estimate import constants as C
from preflight.estimate.arch import from_hf_config
from preflight.estimate.length_cache import LENGTH_TERMS

DATA = Path(__file__).resolve().parents[1] / "calibration" / "data" / "length_cache_kept.json"
QWEN_7B = {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 4096,
           "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 32, "vocab_size": 151936, "max_position_embeddings": 8192,
           "rms_norm_eps": 1e-6, "tie_word_embeddings": False}


def _inp(**kw):
    base = dict(arch=from_hf_config(QWEN_7B, name="qwen-7b"), mode="train", precision="bf16",
                optimizer="adamw", micro_batch=1, seq_len=4096, grad_ckpt=True, attention="flash",
                lora_r=8, lora_targets=("q_proj", "k_proj", "v_proj"), torch_version="2.1.1",
                transformers_version="4.44.2", gpu_bf16=True)
    base.update(kw)
    return EstimateInput(**base)


def _step(est) -> float:
    return max(sum(v for t, v in terms.items() if t in LENGTH_TERMS) for terms in est.phases.values())


def test_the_constants_are_the_simulated_grid():
    doc = json.loads(DATA.read_text(encoding="utf-8"))
    rows = [r for r in doc["rows"] if r["order"] == "shuffled" and r["allocator"] == "native"]
    assert len(rows) == 16 and {r["cap"] for r in rows} == {2048, 8192}
    kept = [r["kept"] for r in rows]
    assert (round(min(kept), 2), round(statistics.median(kept), 2), round(max(kept), 2)) == C.LENGTH_CACHE_KEPT
    for r in rows:
        # each figure is a difference of two searched capacities, in the unit length_cache charges in
        want = (r["min_capacity_gib"] - r["fixed_min_capacity_gib"]) / r["transient_at_cap_gib"]
        assert abs(r["kept"] - want) < 2e-3
        # a run never needs more than it reserved without a limit, nor less than it allocated
        assert r["peak_allocated_gib"] - 0.07 <= r["min_capacity_gib"] <= r["peak_reserved_gib"] + 0.07
    # what is kept is a small part of what is cached: most of the cache is released before an OOM
    assert C.LENGTH_CACHE_KEPT[1] < C.LENGTH_SPREAD[("shuffled", "native")][1] / 4


def test_the_verdict_counts_the_kept_part_by_hand():
    fixed = estimate(_inp(padding="max_length"))
    step = _step(fixed)
    dyn = estimate(_inp(padding="dynamic", group_by_length=False, expandable_segments=False))
    cache = dyn.breakdown["length_cache"]
    _low, median, high = C.LENGTH_CACHE_KEPT
    kept = min(step * max(median, 0.0), cache)
    _r_lo, r_point, r_hi = dyn.reclaimable
    assert abs(r_point - (cache - kept)) <= 2
    _c_low, _c_median, c_high = C.LENGTH_SPREAD[("shuffled", "native")]
    assert abs(r_hi - (step * c_high - min(step * max(high, 0.0), step * c_high))) <= 2
    # the verdict's top: a card that holds the interval's top without the whole cache but not with
    # the kept part is "tight" now; before est39 (all of it released) it was "fits"
    kept_top = min(step * max(high, 0.0), step * c_high)
    assert kept_top > 0.1 * step
    top_without_cache = dyn.interval_bytes[1] - step * c_high
    card = SimpleNamespace(memory_bytes=top_without_cache + kept_top / 2)
    assert dyn.peak_bytes - r_point <= card.memory_bytes
    assert verdict(dyn, card) == "tight"
    assert verdict(dyn, SimpleNamespace(memory_bytes=top_without_cache + kept_top * 1.01)) == "fits"


def test_grouped_batches_or_expandable_segments_keep_nothing():
    for kw in (dict(group_by_length=True), dict(expandable_segments=True)):
        dyn = estimate(_inp(padding="dynamic", **kw))
        assert dyn.reclaimable[1] == dyn.breakdown.get("length_cache", 0), kw


def test_the_report_says_what_the_verdict_counts(capsys):
    args = ["estimate", "--model", "Qwen2.5-7B", "--seq-len", "4096", "--lora-r", "8", "--padding", "dynamic"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "released before an out-of-memory error, not counted by the verdict" in text
    kept_line = "in segments still partly in use: the allocator cannot release them, counted by the verdict"
    assert (kept_line in text) == (C.LENGTH_CACHE_KEPT[1] > 0)
    assert main([*args, "--group-by-length"]) == 0
    assert kept_line not in capsys.readouterr().out
