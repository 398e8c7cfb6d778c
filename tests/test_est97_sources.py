"""est97: the regime rows' split by publisher (calibration/public/est97_sources.py) follows the rule it states and was
committed with: publishers sorted by name, alternately choose / check, every peak with its publisher's half, and no
row of a split from held-out-46 on."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "calibration" / "public"))

import est97_sources as S  # noqa: E402


def test_regime_of_a_setup() -> None:
    assert S.regime({"mode": "train", "quant": "4bit", "fsdp": True}) == "a"   # a 4-bit base counts in (a)
    assert S.regime({"mode": "train", "quant": "8bit"}) == "a"
    assert S.regime({"mode": "train", "zero_stage": 2}) == "b"
    assert S.regime({"mode": "train", "zero_stage": 1, "offload_optimizer": True}) == "b"
    assert S.regime({"mode": "train", "zero_stage": 1}) is None
    assert S.regime({"mode": "generate", "quant": "4bit"}) is None
    assert S.regime({"mode": "train", "world_size": 8}) is None                # plain DDP is neither


def test_halves_alternate_sorted_publishers_and_are_disjoint() -> None:
    rows = S.regime_rows()
    for reg in ("a", "b"):
        pubs = sorted({r["publisher"] for r in rows if r["regime"] == reg})
        choose, check = S.halves(rows, reg)
        assert choose == pubs[0::2] and check == pubs[1::2]
        assert not set(choose) & set(check)
        assert all(p for p in pubs)                     # every row has a publisher (the thread's owner at worst)


def test_the_committed_assignment_is_what_the_rule_gives() -> None:
    """The file committed before any error was looked at still matches the rule on today's rows."""
    text = (REPO / "calibration" / "public" / "est97_halves.txt").read_text(encoding="utf-8")
    rows = S.regime_rows()
    for reg in ("a", "b"):
        choose, check = S.halves(rows, reg)
        assert f"choose {len(choose):3d} publishers" in text and ", ".join(choose) in text
        assert f"check  {len(check):3d} publishers" in text and ", ".join(check) in text


def test_no_split_from_held_out_46_on() -> None:
    splits = {r["split"] for r in S.regime_rows()}
    nums = [int(s.rsplit("-", 1)[1]) for s in splits if s[-1].isdigit()]
    assert nums and max(nums) <= 45
