"""calibration/caching_allocator.py: the CUDA caching allocator's policy, recomputed by hand."""

from __future__ import annotations

import pytest

from calibration.caching_allocator import CachingAllocator, ExpandableAllocator, OutOfMemory, replay

MIB = 1 << 20


def test_small_request_is_rounded_to_512_and_gets_a_2_mib_segment() -> None:
    a = CachingAllocator()
    a.malloc(100)
    assert a.stats.allocated == 512
    assert a.stats.reserved == 2 * MIB
    a.malloc(1000)  # split from the same 2 MiB segment
    assert a.stats.allocated == 512 + 1024
    assert a.stats.segments == 1


def test_medium_request_gets_a_20_mib_segment_and_large_ones_round_to_2_mib() -> None:
    a = CachingAllocator()
    a.malloc(3 * MIB)
    assert a.stats.reserved == 20 * MIB
    a.malloc(5 * MIB)  # fits in the 17 MiB left of that segment
    assert a.stats.reserved == 20 * MIB
    a.malloc(12 * MIB + 1)  # rounded to 12 MiB + 512 B; a new segment of 14 MiB
    assert a.stats.reserved == 34 * MIB
    assert a.stats.allocated == 3 * MIB + 5 * MIB + 12 * MIB + 512


def test_a_larger_request_cannot_use_a_smaller_cached_block() -> None:
    """What a growing sequence length does: every new record takes a new segment."""
    a = CachingAllocator()
    a.free(a.malloc(100 * MIB))
    a.free(a.malloc(110 * MIB))
    assert a.stats.reserved == 210 * MIB
    assert a.stats.allocated == 0
    a.free(a.malloc(90 * MIB))  # best fit: the 100 MiB block, split, then merged back
    assert a.stats.reserved == 210 * MIB
    assert a.stats.peak_allocated == 110 * MIB


def test_best_fit_picks_the_smallest_block_that_fits() -> None:
    a = CachingAllocator()
    big = a.malloc(200 * MIB)
    small = a.malloc(60 * MIB)
    a.free(big)
    a.free(small)
    b = a.malloc(50 * MIB)
    assert b.segment == small.segment


def test_split_remainder_of_one_mib_or_less_is_not_split_in_the_large_pool() -> None:
    a = CachingAllocator()
    a.free(a.malloc(20 * MIB))
    b = a.malloc(19 * MIB + 512)  # remainder 1 MiB - 512: not split
    assert b.size == 20 * MIB
    assert a.stats.allocated == 20 * MIB


def test_freed_neighbours_merge_into_one_block() -> None:
    a = CachingAllocator()
    seg = a.malloc(40 * MIB)
    a.free(seg)
    x = a.malloc(10 * MIB)
    y = a.malloc(10 * MIB)
    a.free(x)
    a.free(y)
    whole = a.malloc(40 * MIB)
    assert whole.segment == seg.segment and a.stats.reserved == 40 * MIB


def test_cache_is_released_only_when_cuda_malloc_fails() -> None:
    a = CachingAllocator(capacity=150 * MIB)
    a.free(a.malloc(100 * MIB))
    a.malloc(120 * MIB)  # 100 + 120 > 150: the free 100 MiB segment is released first
    assert a.stats.reserved == 120 * MIB
    assert a.stats.releases == 1
    assert a.stats.peak_reserved == 120 * MIB
    with pytest.raises(OutOfMemory):
        a.malloc(40 * MIB)


def test_replay_events() -> None:
    a = CachingAllocator()
    replay([("a", 1, 30 * MIB), ("a", 2, 30 * MIB), ("f", 1, 0), ("a", 3, 31 * MIB)], a)
    assert a.stats.reserved == 30 * MIB + 30 * MIB + 32 * MIB
    # 31 MiB takes a 32 MiB segment whole (1 MiB left is not more than kSmallSize), and
    # memory_allocated counts the block's size
    assert a.stats.allocated == 30 * MIB + 32 * MIB


# -- expandable_segments:True (est23) ------------------------------------------------------------

def _range_bytes(a: ExpandableAllocator) -> int:
    """Bytes of the large range's blocks, walked from the tail: what is mapped."""
    total, block = 0, a._tail
    while block is not None:
        total += block.size
        block = block.prev
    return total


def test_expandable_a_larger_request_grows_the_free_tail_instead_of_a_new_segment() -> None:
    a = ExpandableAllocator()
    a.free(a.malloc(100 * MIB))
    a.free(a.malloc(110 * MIB))   # the free 100 MiB tail + one 20 MiB page (10 MiB short)
    assert a.stats.reserved == 120 * MIB
    n = CachingAllocator()
    n.free(n.malloc(100 * MIB))
    n.free(n.malloc(110 * MIB))
    assert n.stats.reserved == 210 * MIB   # the native allocator takes a second segment
    assert _range_bytes(a) == a.stats.reserved


def test_expandable_maps_whole_20_mib_pages_and_splits_the_rest() -> None:
    a = ExpandableAllocator()
    a.malloc(30 * MIB)
    assert a.stats.reserved == 40 * MIB
    a.malloc(5 * MIB)                      # fits in the 10 MiB left mapped
    assert a.stats.reserved == 40 * MIB
    assert a.stats.allocated == 35 * MIB


def test_expandable_a_hole_between_live_blocks_is_not_grown() -> None:
    a = ExpandableAllocator()
    first = a.malloc(100 * MIB)
    a.malloc(40 * MIB)
    a.free(first)                          # a 100 MiB hole below a live block
    block = a.malloc(120 * MIB)
    assert block.addr == 140 * MIB         # appended after the live block
    assert a.stats.reserved == 260 * MIB


def test_expandable_frees_merge_and_capacity_unmaps_the_free_tail() -> None:
    a = ExpandableAllocator(capacity=300 * MIB)
    x = a.malloc(200 * MIB)
    y = a.malloc(60 * MIB)
    a.free(y)
    a.free(x)                              # one free 260 MiB block
    a.malloc(290 * MIB)                    # grows it by 40 MiB: 300 MiB mapped
    assert a.stats.reserved == 300 * MIB
    b = ExpandableAllocator(capacity=300 * MIB)
    b.malloc(200 * MIB)
    b.free(b.malloc(60 * MIB))
    with pytest.raises(OutOfMemory):       # the free 60 MiB tail is unmapped, 120 MiB still too much
        b.malloc(120 * MIB)
    assert b.stats.reserved == 200 * MIB and b.stats.releases == 1
