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
