"""A simulator of PyTorch's CUDA caching allocator (the native backend, one device, one stream).

Used to test, without a GPU, whether ``torch.cuda.max_memory_reserved`` over a run whose
batches change shape sits far above the allocated peak of any one step (docs/calibration.md,
"est10: held-out-6's causes traced"). It replays a list of allocation and free events and
reports what the allocator's statistics would report: ``allocated`` (sum of the rounded
sizes of live blocks, what ``memory_allocated`` counts), ``reserved`` (sum of the segments
obtained from ``cudaMalloc``, what ``memory_reserved`` counts) and their peaks.

The policy is ``c10/cuda/CUDACachingAllocator.cpp`` of torch 2.1 (held-out-6's ms-swift rows
record torch 2.1.1) with the default configuration (no ``PYTORCH_CUDA_ALLOC_CONF``: no
``max_split_size_mb``, no ``roundup_power2_divisions``, no garbage-collection threshold, no
expandable segments). Read in that file; every constant and rule below is named as there:

- ``round_size``: a request is rounded up to a multiple of ``kMinBlockSize`` (512 B).
- ``get_pool``: requests of at most ``kSmallSize`` (1 MiB) use the small pool, others the large
  pool; a block is never moved between pools.
- ``get_allocation_size``: a new segment is ``kSmallBuffer`` (2 MiB) for a small request,
  ``kLargeBuffer`` (20 MiB) for a request under ``kMinLargeAlloc`` (10 MiB), else the request
  rounded up to ``kRoundLarge`` (2 MiB).
- ``get_free_block``: best fit, the free block of the pool that is first in (size, address)
  order among those at least as large as the request (``std::set::lower_bound`` with
  ``BlockComparatorSize``).
- ``should_split``: the block is split when what remains is at least 512 B (small pool) or
  more than ``kSmallSize`` (large pool); the request takes the low addresses, the remainder
  stays in the pool.
- ``free_block`` / ``try_merge_blocks``: a freed block merges with free neighbours of the
  same segment.
- No memory is returned to the device (``cudaFree``) unless ``cudaMalloc`` fails: then
  ``release_cached_blocks`` frees every cached segment that is wholly free (without
  ``max_split_size_mb``, ``release_available_cached_blocks`` returns false at once) and the
  allocation is retried; if it fails again the run is out of memory.

``capacity`` is the memory ``cudaMalloc`` can hand out (the GPU's memory less the CUDA
context and anything outside the allocator); ``None`` means unbounded.

Pure Python, no torch import.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Tuple

K_MIN_BLOCK_SIZE = 512
K_SMALL_SIZE = 1 << 20
K_SMALL_BUFFER = 2 << 20
K_LARGE_BUFFER = 20 << 20
K_MIN_LARGE_ALLOC = 10 << 20
K_ROUND_LARGE = 2 << 20


def round_size(size: int) -> int:
    """``round_size`` without ``roundup_power2_divisions``."""
    if size < K_MIN_BLOCK_SIZE:
        return K_MIN_BLOCK_SIZE
    return K_MIN_BLOCK_SIZE * ((size + K_MIN_BLOCK_SIZE - 1) // K_MIN_BLOCK_SIZE)


def allocation_size(size: int) -> int:
    """``get_allocation_size``: the segment ``cudaMalloc`` is asked for, for a rounded request."""
    if size <= K_SMALL_SIZE:
        return K_SMALL_BUFFER
    if size < K_MIN_LARGE_ALLOC:
        return K_LARGE_BUFFER
    return K_ROUND_LARGE * ((size + K_ROUND_LARGE - 1) // K_ROUND_LARGE)


class OutOfMemory(Exception):
    """``cudaMalloc`` failed after the cache was released."""


@dataclass(eq=False)
class Block:
    size: int
    addr: int
    small: bool
    segment: int
    allocated: bool = False
    prev: Optional[Block] = None
    next: Optional[Block] = None


@dataclass
class Stats:
    allocated: int = 0
    reserved: int = 0
    peak_allocated: int = 0
    peak_reserved: int = 0
    segments: int = 0
    cuda_mallocs: int = 0
    releases: int = 0


@dataclass
class _Pool:
    small: bool
    keys: List[Tuple[int, int]] = field(default_factory=list)  # sorted (size, addr) of free blocks
    blocks: dict = field(default_factory=dict)  # (size, addr) -> Block

    def insert(self, block: Block) -> None:
        key = (block.size, block.addr)
        bisect.insort(self.keys, key)
        self.blocks[key] = block

    def remove(self, block: Block) -> None:
        key = (block.size, block.addr)
        i = bisect.bisect_left(self.keys, key)
        del self.keys[i]
        del self.blocks[key]

    def best_fit(self, size: int) -> Optional[Block]:
        i = bisect.bisect_left(self.keys, (size, -1))
        if i == len(self.keys):
            return None
        return self.blocks[self.keys[i]]


class CachingAllocator:
    """One device, one stream. ``malloc(n) -> handle``, ``free(handle)``."""

    def __init__(self, capacity: Optional[int] = None) -> None:
        self.capacity = capacity
        self.small = _Pool(True)
        self.large = _Pool(False)
        self.stats = Stats()
        self._next_addr = 0
        self._next_segment = 0
        self._segment_heads: dict = {}  # segment id -> first block (address order)
        self._segment_sizes: dict = {}

    # -- cudaMalloc / cudaFree ---------------------------------------------------------
    def _cuda_malloc(self, size: int, small: bool) -> Optional[Block]:
        if self.capacity is not None and self.stats.reserved + size > self.capacity:
            return None
        seg = self._next_segment
        self._next_segment += 1
        block = Block(size=size, addr=self._next_addr, small=small, segment=seg)
        self._next_addr += size + K_ROUND_LARGE  # segments never touch: no cross-segment merge
        self._segment_heads[seg] = block
        self._segment_sizes[seg] = size
        self.stats.reserved += size
        self.stats.segments += 1
        self.stats.cuda_mallocs += 1
        self.stats.peak_reserved = max(self.stats.peak_reserved, self.stats.reserved)
        return block

    def _release_cached_blocks(self) -> None:
        """``release_cached_blocks``: cudaFree every wholly free segment of both pools."""
        self.stats.releases += 1
        for pool in (self.small, self.large):
            for key in list(pool.keys):
                block = pool.blocks[key]
                if block.prev is None and block.next is None:
                    pool.remove(block)
                    self.stats.reserved -= self._segment_sizes.pop(block.segment)
                    del self._segment_heads[block.segment]
                    self.stats.segments -= 1

    # -- malloc / free -------------------------------------------------------------------
    def malloc(self, nbytes: int) -> Block:
        size = round_size(nbytes)
        small = size <= K_SMALL_SIZE
        pool = self.small if small else self.large
        block = pool.best_fit(size)
        if block is not None:
            pool.remove(block)
        else:
            alloc = allocation_size(size)
            block = self._cuda_malloc(alloc, small)
            if block is None:
                self._release_cached_blocks()
                block = self._cuda_malloc(alloc, small)
            if block is None:
                raise OutOfMemory(f"cannot allocate {size} B: {self.stats.reserved} B reserved")
        remaining = block.size - size
        split = remaining >= K_MIN_BLOCK_SIZE if small else remaining > K_SMALL_SIZE
        if split:
            rest = Block(size=remaining, addr=block.addr + size, small=small,
                         segment=block.segment, prev=block, next=block.next)
            if block.next is not None:
                block.next.prev = rest
            block.next = rest
            block.size = size
            pool.insert(rest)
        block.allocated = True
        self.stats.allocated += block.size
        self.stats.peak_allocated = max(self.stats.peak_allocated, self.stats.allocated)
        return block

    def free(self, block: Block) -> None:
        if not block.allocated:
            raise ValueError("double free")
        block.allocated = False
        self.stats.allocated -= block.size
        pool = self.small if block.small else self.large
        for neighbour in (block.prev, block.next):
            if neighbour is None or neighbour.allocated:
                continue
            pool.remove(neighbour)
            if neighbour is block.prev:
                block.addr = neighbour.addr
                block.prev = neighbour.prev
                if neighbour.prev is not None:
                    neighbour.prev.next = block
            else:
                block.next = neighbour.next
                if neighbour.next is not None:
                    neighbour.next.prev = block
            block.size += neighbour.size
        pool.insert(block)

    def reset_peaks(self) -> None:
        self.stats.peak_allocated = self.stats.allocated
        self.stats.peak_reserved = self.stats.reserved


def replay(events: Iterable[Tuple[str, int, int]], alloc: CachingAllocator) -> None:
    """Replay ``("a", key, nbytes)`` / ``("f", key, 0)`` events; keys name live allocations."""
    live: dict = {}
    for kind, key, nbytes in events:
        if kind == "a":
            live[key] = alloc.malloc(nbytes)
        else:
            alloc.free(live.pop(key))


class ExpandableAllocator(CachingAllocator):
    """The same allocator with ``PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`` (torch >= 2.1):
    the large pool is one virtual address range per stream, backed by physical pages of
    ``kLargeBuffer`` (20 MiB) mapped on demand (``ExpandableSegment``).

    ``malloc`` still takes the best-fitting free mapped block first (``get_free_block``). When
    none fits, ``try_allocate_expandable_block`` / ``find_expandable_block`` take the lowest
    unmapped address range together with the free mapped block just before it, and map only the
    pages still missing; the mapped remainder stays a free block (split as usual). So a larger
    request than any cached block grows the tail of the range instead of taking a new segment,
    and a free block at the tail is reused whatever its size. Freed blocks merge with their free
    neighbours across the whole range. The small pool is left native (2 MiB segments), as its
    blocks are at most 1 MiB. Pages are unmapped only by ``release_cached_blocks`` (here: the
    free tail, when ``capacity`` is reached).
    """

    def __init__(self, capacity: Optional[int] = None) -> None:
        super().__init__(capacity)
        self._tail: Optional[Block] = None   # highest-address block of the large range
        self._mapped = 0

    def malloc(self, nbytes: int) -> Block:
        size = round_size(nbytes)
        if size <= K_SMALL_SIZE or self.large.best_fit(size) is not None:
            out = super().malloc(nbytes)
            while self._tail is not None and self._tail.next is not None:   # the tail was split
                self._tail = self._tail.next
            return out
        tail = self._tail
        have = tail.size if tail is not None and not tail.allocated else 0
        grow = K_LARGE_BUFFER * ((size - have + K_LARGE_BUFFER - 1) // K_LARGE_BUFFER)
        if self.capacity is not None and self.stats.reserved + grow > self.capacity:
            self._release_cached_blocks()
            tail = self._tail
            have = tail.size if tail is not None and not tail.allocated else 0
            grow = K_LARGE_BUFFER * ((size - have + K_LARGE_BUFFER - 1) // K_LARGE_BUFFER)
            if self.stats.reserved + grow > self.capacity:
                raise OutOfMemory(f"cannot map {grow} B: {self.stats.reserved} B reserved")
        if have:
            assert tail is not None
            self.large.remove(tail)
            tail.size += grow
            block = tail
        else:
            block = Block(size=grow, addr=self._mapped, small=False, segment=-1, prev=tail)
            if tail is not None:
                tail.next = block
        self._mapped += grow
        self.stats.reserved += grow
        self.stats.cuda_mallocs += 1
        self.stats.segments = max(self.stats.segments, 1)
        self.stats.peak_reserved = max(self.stats.peak_reserved, self.stats.reserved)
        self._tail = block
        self.large.insert(block)
        out = super().malloc(nbytes)   # best fit now finds the grown block: the only one that fits
        while self._tail.next is not None:
            self._tail = self._tail.next
        return out

    def free(self, block: Block) -> None:
        super().free(block)
        if block.segment == -1 and block.next is None:   # the tail, or merged with it
            self._tail = block

    def _release_cached_blocks(self) -> None:
        """The small pool's wholly free segments, and the large range's free tail pages."""
        self.stats.releases += 1
        for key in list(self.small.keys):
            block = self.small.blocks[key]
            if block.prev is None and block.next is None:
                self.small.remove(block)
                self.stats.reserved -= self._segment_sizes.pop(block.segment)
                del self._segment_heads[block.segment]
                self.stats.segments -= 1
        tail = self._tail
        if tail is not None and not tail.allocated:
            self.large.remove(tail)
            self.stats.reserved -= tail.size
            self._mapped -= tail.size
            self._tail = tail.prev
            if tail.prev is not None:
                tail.prev.next = None
