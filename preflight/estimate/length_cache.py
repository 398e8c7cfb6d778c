"""Cached blocks of other sequence lengths: what ``torch.cuda.memory_reserved`` holds above the
allocated peak when a job's batches change length from step to step (dynamic padding).

PyTorch's caching allocator never returns memory to the device unless ``cudaMalloc`` fails
(``c10/cuda/CUDACachingAllocator.cpp``): a tensor of a new, larger size cannot use a cached
block of a smaller one and takes a new segment, while best-fit splitting of the larger cached
blocks by shorter steps leaves them unable to serve the longest step again. Over a run whose
batch lengths vary, reserved memory therefore rises well above the allocated peak of any
one step, by an amount proportional to the step's transient length-dependent tensors
(logits and loss, recomputation, backward transients). The saved activations are left out:
they are allocated in the same order every step, and the simulator's runs without
checkpointing (whose saved activations are many times larger) show about the same excess
per byte of the transient tensors as the runs with it (median 3.3 against 2.7).

The ratio is measured, not fitted: ``calibration/variable_length.py`` replays training steps
recorded on fake tensors (held-out-6's ms-swift jobs, Qwen-7B and Yi-6B shapes, 512 to 8,192
tokens, with and without checkpointing) through a simulator of that allocator (``calibration/caching_allocator.py``) and
compares a run at a fixed length with runs whose lengths vary
(``calibration/data/variable_length.json``; docs/calibration.md, "est10").

The cached blocks are released before an out-of-memory error (``release_cached_blocks``), so
they never make a job fail: ``Estimate.reclaimable`` carries them and the verdict leaves them
out.

est23 (docs/calibration.md, "est23"): est10's ratio belongs to one dataset whose lengths are known
(spread widely under and over the cap). A plan does not know its data's lengths, so the term is
now read from ``calibration/length_spread.py`` (``calibration/data/length_spread.json``): the same
recorded step replayed over a grid of length distributions (mean 0.1 to 3 times the cap, samples
over the cap dropped or cut) for each batch order and allocator setting the plan can know:

- shuffled batches (the default sampler) or ``group_by_length`` (transformers'
  ``get_length_grouped_indices``: the longest batch first, megabatches sorted longest first): the
  first step allocates the largest blocks, later shorter steps split them and merge back, so few
  new segments are taken;
- the native allocator, or ``PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True``: a request that
  no cached block fits grows the mapped range (``find_expandable_block`` joins the free tail to
  the unmapped pages) instead of taking a segment of its own size, so blocks of other lengths are
  reused whatever their size.

The point is the grid's median (never below 0: the term is cached memory), the interval's top its
highest run; the interval's bottom goes below the estimate at the cap by the grid's lowest run,
since with unknown data the longest batch may be well under the cap. A setting the plan does not
know widens the bottom to the other setting's.
"""

from __future__ import annotations

from typing import Any

from preflight.estimate import constants as C

#: Transient terms whose size follows the batch's sequence length.
LENGTH_TERMS = ("activation_recompute", "backward_transient", "logits_loss",
                "held_outputs")


def step_bytes(terms: dict[str, float]) -> float:
    """The length-dependent tensors of one phase."""
    return sum(v for t, v in terms.items() if t in LENGTH_TERMS)


def applies(inp: Any) -> bool:
    """Training on batches whose length varies (``data.padding`` = dynamic)."""
    return inp.mode == "train" and inp.padding == "dynamic"


#: est67: what a job does with a sample longer than the cap (``EstimateInput.truncation``)
TRUNCATIONS = ("truncate", "delete")


def spread_ratios(inp: Any) -> tuple[float, float, float]:
    """(low, median, high) reserved bytes above a run padded to the cap, per byte of the step's
    transient length-dependent tensors at the cap, for the batch order and allocator the plan
    knows (``constants.LENGTH_SPREAD``). Unknown (None) settings take the defaults (shuffled,
    native) with the bottom of both. est67: when the job's treatment of a sample over the cap is
    known (``truncation``), only the grid's runs that treat it so (``constants.LENGTH_SPREAD_CUT``):
    cut samples put the longest batch at the cap in most runs whose data reaches it, so shorter
    batches rarely need a block the longest one did not leave (median 0.75 against 2.86 dropped)."""
    orders = ("group_by_length",) if inp.group_by_length else (
        ("shuffled",) if inp.group_by_length is False else ("shuffled", "group_by_length"))
    allocators = ("expandable",) if inp.expandable_segments else (
        ("native",) if inp.expandable_segments is False else ("native", "expandable"))
    cut = getattr(inp, "truncation", None)
    if cut in TRUNCATIONS:
        # est67: the runs that treat a sample over the cap as the job does
        _, median, high = C.LENGTH_SPREAD_CUT[(orders[0], allocators[0], cut)]
        low = min(C.LENGTH_SPREAD_CUT[(o, a, cut)][0] for o in orders for a in allocators)
        return low, median, high
    _, median, high = C.LENGTH_SPREAD[(orders[0], allocators[0])]
    low = min(C.LENGTH_SPREAD[(o, a)][0] for o in orders for a in allocators)
    return low, median, high


def kept_ratios(inp: Any) -> tuple[float, float]:
    """(point, high) share of the cache, per byte of the step's transient length-dependent tensors
    at the cap, that ``release_cached_blocks`` cannot give back before an out-of-memory error
    (est39, ``constants.LENGTH_CACHE_KEPT``): the verdict counts it. Measured for shuffled batches
    on the native allocator (also the default of an unknown setting); batches grouped by length or
    expandable segments hold almost no cache (``LENGTH_SPREAD`` medians about 0) and keep none here.
    Never more than the cache itself."""
    if inp.group_by_length or inp.expandable_segments:
        return 0.0, 0.0
    _, median, high = C.LENGTH_CACHE_KEPT
    _, c_median, c_high = spread_ratios(inp)
    return min(max(median, 0.0), max(c_median, 0.0)), min(max(high, 0.0), max(c_high, 0.0))


def cache_bytes(step: float, inp: Any) -> tuple[float, float, float]:
    """(bottom, point, top) bytes for a step of ``step`` length-dependent bytes at the cap:
    ``point`` and ``top`` are cached blocks (never below 0); ``bottom`` may be negative, by how
    much the run may stay under the estimate at the cap."""
    low, median, high = spread_ratios(inp)
    return step * low, step * max(median, 0.0), step * max(high, 0.0)


def within_capacity(value: float, cached: float, capacity: float) -> float:
    """Reserved memory ``value`` holding ``cached`` bytes of other lengths, on a device whose
    allocator can obtain ``capacity`` bytes: when ``cudaMalloc`` fails the allocator releases
    cached segments (``release_cached_blocks``) and retries, so reserved memory stops at the
    capacity, and never below what the step itself needs."""
    if cached <= 0:
        return value
    return max(value - cached, min(value, capacity))


#: Encoder-decoder model types whose encoder input has one length in every step: Whisper's
#: feature extractor pads or cuts every clip to 30 s (``WhisperFeatureExtractor``:
#: ``n_samples = chunk_length * sampling_rate``, ``padding="max_length"``; 3,000 log-mel frames,
#: 1,500 encoder positions after the stride-2 convolution, which ``WhisperEncoder.forward``
#: requires). Dynamic padding varies only the decoder's labels.
FIXED_LENGTH_ENCODERS = ("whisper",)


def fixed_length_encoder(arch: Any) -> bool:
    return (getattr(arch, "family", "") == "encoder-decoder"
            and str(getattr(arch, "model_type", "")) in FIXED_LENGTH_ENCODERS)
