"""calibration/qlora_load_reserved.py: the 4-bit load's events and their replay (est53)."""

from __future__ import annotations

from calibration.qlora_load_reserved import bnb_load, replay

MIB = 2 ** 20


def test_a_weight_quantized_on_the_gpu_allocates_and_frees_as_bitsandbytes_does():
    n = 4096 * 4096
    events = bnb_load([("a", 0, n // 2 + n // 64), ("a", 1, 4096)], [n, None])
    assert events == [
        ("a", ("w16", 0), 2 * n),              # the 16-bit copy moved to the GPU
        ("a", ("absmax32", 0), 4 * (n // 64)),  # fp32 absmax, one per 64 weights
        ("a", 0, n // 2),                       # the packed weight
        ("a", ("qabsmax", 0), n // 64),         # double quantization: 8-bit absmax
        ("a", ("absmax2", 0), 4 * (n // 64 // 256)),
        ("f", ("absmax32", 0), 0),
        ("f", ("w16", 0), 0),
        ("a", 1, 4096),                         # a weight that stays 16-bit: as recorded
    ]


def test_the_replay_reports_what_the_simulated_allocator_holds_after_the_load():
    n = 4096 * 4096
    setup = bnb_load([("a", 0, n // 2 + n // 64)], [n])
    got = replay(setup, {"steps": [[], []], "optim": []}, repeats=0)
    # after the load: the packed weight (8 MiB), the 8-bit absmax (256 KiB) and the fp32 second
    # level (4 KiB) stay allocated
    assert got["after_load_allocated_gib"] == round((8 * MIB + 256 * 1024 + 4096) / 2 ** 30, 3)
    # segments: the 32 MiB copy's own, a 2 MiB small-pool segment (the 1 MiB fp32 absmax, then
    # both absmax remainders), a 20 MiB large segment for the 8 MiB packed weight (the copy's
    # segment was in use when it was requested)
    assert got["after_load_reserved_gib"] == round((32 + 2 + 20) * MIB / 2 ** 30, 3)
    assert got["peak_allocated_gib"] == round((32 * MIB + MIB + 8 * MIB + 256 * 1024 + 4096) / 2 ** 30, 3)


def test_long_context_replays_hold_the_charged_step_cache_ratio_not_the_short_mlp_runs():
    """calibration/data/step_cache_long_context.json (est53): with Llama-3.1-8B's shapes at 8k-16k
    tokens, LoRA on every projection keeps about the charged ratio, far under the 0.787-1.209 of the
    short Llama-2 runs with MLP adapters (fixed_length.json); so that class ratio is not general."""
    import json
    from pathlib import Path

    from preflight.estimate import constants as C

    root = Path(__file__).resolve().parents[1] / "calibration" / "data"
    long_runs = json.loads((root / "step_cache_long_context.json").read_text())["runs"]
    short = json.loads((root / "fixed_length.json").read_text())["runs"]
    short_mlp = [r["ratio"] for r in short if "r64-all" in r["name"]
                 and r["estimator_peak_phase"] == "backward"]
    assert len(long_runs) == 3 and len(short_mlp) == 4
    for r in long_runs:
        # the ratio is the excess over the estimator's transient, as fixed_length.record_case writes it
        assert r["ratio"] == round(r["excess_gib"] / r["estimator_transient_gib"], 3)
        assert abs(r["ratio"] - C.STEP_CACHE_RATIO) < 0.075
        assert r["ratio"] < min(short_mlp)
