"""est55: how much of the step cache the simulated allocator gives back before an out-of-memory error
(``calibration/data/step_cache_releasable.json`` beside ``fixed_length.json``'s ``min_capacity``).

Each run's share is recomputed from its three capacities, and the median share over all replays is
below the tenth that held-out-13's Liger-Kernel b48 row (1.2 GiB over the card, 12.3 GiB of step cache)
would need for the verdict to leave it out: the verdict keeps counting ``fragmentation``.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "calibration" / "data"


def _runs() -> list:
    long = json.loads((DATA / "step_cache_releasable.json").read_text(encoding="utf-8"))["runs"]
    short = json.loads((DATA / "fixed_length.json").read_text(encoding="utf-8"))["min_capacity"]
    return long + short


def test_each_share_is_what_its_capacities_say():
    runs = _runs()
    assert len(runs) == 6
    for r in runs:
        alloc, reserved, cap = r["simulated_allocated_gib"], r["simulated_reserved_gib"], r["min_capacity_gib"]
        assert alloc <= cap <= reserved
        assert abs((reserved - cap) / (reserved - alloc) - r["releasable_share"]) < 0.01


def test_the_median_share_does_not_cover_the_liger_rows_margin():
    from preflight.estimate import constants as C

    median = statistics.median(r["releasable_share"] for r in _runs())
    logits_gib, over_gib = 35.2, 1.2        # the row's logits transient and its point over the card (est51)
    assert median * C.STEP_CACHE_RATIO * logits_gib < over_gib
