"""The phase-aware cost model: peak memory per GPU of one training or generation step.

A training step has three phases (forward, backward, optimizer step); generation has two
(prefill, decode). Each phase lists the terms live in it; the peak is the largest phase
total, not the sum of every term. See docs/estimator.md for the formulas.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Optional

from preflight.estimate import constants as C
from preflight.estimate.buffers import model_buffer_bytes
from preflight.estimate.dequant import stored_weights
from preflight.estimate.geometry import _Params, _params, litgpt_untied
from preflight.estimate.gpu_facts import cuda_build_before_lazy, lazy_context
from preflight.estimate.inference import inference_phases
from preflight.estimate.inputs import EstimateInput
from preflight.estimate.nf4_quantize import quantize_transient
from preflight.estimate.position_tables import position_table_bytes
from preflight.estimate.shapes import (  # noqa: F401  (re-exported for callers and tests)
    _ALL_LINEAR,
    _LLAMA_SHAPES,
    _TARGET_DIMS,
    guessed_architecture,
    lora_params,
    lora_targets,
)
from preflight.estimate.step_segments import step_segments
from preflight.estimate.terms import (
    fsdp1_wrap_peak,
    fsdp_quant_constants,
)
from preflight.estimate.train_phase import _dtypes, _shard_count, _train
from preflight.estimate.zero3_load import load_note, load_shard_on_gpu

#: Every term a phase may hold, in the order reports list them.
TERMS = (
    "weights", "buffers", "lora_adapters", "gradients", "master_weights", "optimizer_states",
    "optimizer_temporaries", "autocast_weight_cache", "activations", "activation_recompute",
    "backward_transient", "dequant_transient", "logits_loss", "held_outputs", "kv_cache", "prefill_transient", "ddp_buckets",
    "zero_buckets", "gathered_params", "load_transient", "cuda_context", "nccl_buffers", "cublas_workspace", "fragmentation",
    "length_cache", "stream_cache", "frozen_weights", "frozen_forward", "pending_frees", "step_segments",
)

#: Terms that are not tensors (absent from a tensor-level measurement).
#: Terms outside PyTorch's caching allocator (in nvidia-smi, not in reserved memory).
OUTSIDE_ALLOCATOR = ("cuda_context", "nccl_buffers")
OVERHEAD_TERMS = ("cuda_context", "nccl_buffers", "cublas_workspace", "fragmentation", "length_cache", "stream_cache",
                  "pending_frees", "step_segments")


@dataclass
class Estimate:
    """The result of :func:`estimate`. ``peak_bytes`` is None when the input misses what
    an estimate needs (``missing`` names those fields)."""

    peak_bytes: Optional[int]
    interval_bytes: Optional[tuple[int, int]]
    phase: Optional[str]
    breakdown: dict[str, int]
    phases: dict[str, dict[str, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    params_total: int = 0
    params_trainable: int = 0
    arch_name: str = ""
    arch_source: str = ""
    #: torch >= 2.0 (or unknown: the latest) allocates cuBLAS workspaces through the caching
    #: allocator, so ``torch.cuda.max_memory_allocated`` counts them (see :meth:`allocated_peak`)
    workspace_in_allocator: bool = True
    #: (low, point, high) bytes of the peak that the caching allocator holds cached and
    #: releases before an out-of-memory error (``length_cache``): not counted by the verdict
    reclaimable: tuple[int, int, int] = (0, 0, 0)
    #: bytes of a paged optimizer's states in CUDA managed memory (bitsandbytes): outside
    #: PyTorch's allocator and moved to host memory when the GPU runs short, so not in
    #: ``peak_bytes``; the interval's top counts them resident
    paged_bytes: int = 0
    #: (low, point, high) bytes outside PyTorch's caching allocator in every phase (the CUDA
    #: context and NCCL's buffers): in nvidia-smi's figure and the verdict, in neither
    #: ``memory_allocated`` nor ``memory_reserved``; the interval's top holds their high end
    outside_allocator: tuple[int, int, int] = (0, 0, 0)

    @property
    def ok(self) -> bool:
        return self.peak_bytes is not None

    def allocated_peak(self) -> tuple[int, str]:
        """(bytes, phase) of what ``torch.cuda.max_memory_allocated`` (and the allocator's
        ``active_bytes`` peak) measure: the tensor peak plus, from torch 2.0, the cuBLAS
        workspaces, which PyTorch allocates through its caching allocator (one per handle and
        stream, kept for the process's life). Before 2.0 cuBLAS allocated them itself."""
        value, where = self.tensor_peak()
        if self.workspace_in_allocator and where:
            value += int(self.phases[where].get("cublas_workspace", 0))
        return value, where

    def active_peak(self) -> tuple[int, str]:
        """(bytes, phase) of the allocator's ``active_bytes`` peak: what
        :meth:`allocated_peak` counts plus the blocks freed with stream events pending
        (``pending_frees``, pending_frees.py), which ``free()`` takes out of allocated bytes at
        once but out of active bytes only when the events complete."""
        best, where = 0, ""
        for phase, terms in self.phases.items():
            total = sum(v for t, v in terms.items() if t not in OVERHEAD_TERMS)
            total += terms.get("pending_frees", 0)
            if self.workspace_in_allocator:
                total += terms.get("cublas_workspace", 0)
            if total > best:
                best, where = total, phase
        return best, where

    def tensor_peak(self) -> tuple[int, str]:
        """(bytes, phase) of the largest phase counting tensors only: without the CUDA
        context, the cuBLAS workspace and fragmentation. This is what a tensor-level
        reference (MemTracker, ``torch.cuda.max_memory_allocated``) measures."""
        best, where = 0, ""
        for phase, terms in self.phases.items():
            total = sum(v for t, v in terms.items() if t not in OVERHEAD_TERMS)
            if total > best:
                best, where = total, phase
        return best, where


class _Phases:
    """Terms per phase with their (low, high) multipliers."""

    def __init__(self) -> None:
        self.terms: dict[str, dict[str, float]] = {}
        self.bounds: dict[str, tuple[float, float]] = {}
        #: a term whose multipliers differ between phases (fragmentation)
        self.phase_bounds: dict[tuple[str, str], tuple[float, float]] = {}
        #: bytes outside PyTorch's allocator that the GPU holds only when there is room
        #: (a paged optimizer's managed-memory states): in no phase, in the interval's top
        self.managed = 0.0
        #: dynamic padding with unknown data lengths (``length_cache``): the interval's bottom
        #: moves down by ``-length_bottom`` (the longest batch may be under the cap); cached
        #: blocks in the interval's top only (``cache_top``: a cache of other lengths whose
        #: point is 0, DDP's start-up broadcast copies, ``ddp_sync``)
        self.length_bottom = 0.0
        #: transient bytes (recomputation, a layer's backward) that do not follow the batch's
        #: sequence length: a fixed-length encoder's layer (``fixed_length_encoder``)
        self.fixed_transient = 0.0
        self.cache_top = 0.0

    def add(self, phase: str, term: str, value: float, bounds: tuple[float, float]) -> None:
        if value <= 0:
            return
        self.terms.setdefault(phase, {})
        self.terms[phase][term] = self.terms[phase].get(term, 0.0) + value
        self.bounds[term] = bounds

    def set_phase_bounds(self, phase: str, term: str, bounds: tuple[float, float]) -> None:
        """Multipliers of ``term`` in ``phase`` alone."""
        self.phase_bounds[(phase, term)] = bounds

    def bound(self, phase: str, term: str, which: int) -> float:
        return self.phase_bounds.get((phase, term), self.bounds[term])[which]

    def every(self, phases: tuple[str, ...], term: str, value: float,
              bounds: tuple[float, float]) -> None:
        for phase in phases:
            self.add(phase, term, value, bounds)

    def total(self, phase: str, which: int) -> float:
        out = 0.0
        for term, value in self.terms[phase].items():
            mult = 1.0 if which < 0 else self.bound(phase, term, which)
            out += value * mult
        return out


# --------------------------------------------------------------------------- the estimate


def missing_fields(inp: EstimateInput) -> list[str]:
    out = []
    if inp.arch is None and not inp.params:
        out.append("model (--model NAME|HUB_ID, or --params 7B)")
        return out
    arch = inp.arch
    family = getattr(arch, "family", "decoder") if arch is not None else "decoder"
    if family in ("vision", "cnn"):
        if not (inp.image_size or getattr(arch, "image_size", 0)):
            out.append("data.image_size (--image-size)")
    elif not inp.seq_len:
        out.append("data.seq_len (--seq-len)")
    return out


def estimate(inp: EstimateInput) -> Estimate:
    """Peak memory per GPU of ``inp``, with the phase it happens in and its breakdown.

    The interval covers the cost model's own uncertainty and every fact the input does not
    know that changes the peak (:func:`preflight.estimate.terms.unknown_alternatives`): the
    job is estimated once more with each such fact set the other way and the interval
    stretched to hold that estimate too. A dynamically padded job whose longest sample is cited
    or stated is sized at that sample, not the cap (:mod:`preflight.estimate.sample_lengths`)."""
    from preflight.estimate.terms import unknown_alternatives

    if getattr(inp.arch, "family", "") == "diffusion":  # UNet/DiT pipelines (est32)
        from preflight.estimate.diffusion import estimate_diffusion
        return estimate_diffusion(inp)
    from preflight.estimate.sample_lengths import at_longest_sample, cap_top

    capped = inp
    short, stated, length_note = at_longest_sample(inp)
    if short is not None:
        inp = short
    est = _estimate(inp)
    if not est.ok or est.interval_bytes is None:
        return est
    lo, hi = est.interval_bytes
    for changes, why in unknown_alternatives(inp):
        alt = _estimate(replace(inp, **changes))
        if alt.interval_bytes is None:
            continue
        if alt.interval_bytes[0] < lo or alt.interval_bytes[1] > hi:
            est.notes.append(f"{why}: the interval covers both ({_gib(alt.peak_bytes)} the other way)")
        lo, hi = min(lo, alt.interval_bytes[0]), max(hi, alt.interval_bytes[1])
    hi = int(hi * (1 + C.UNMODELLED_HI))
    if short is not None:
        est.notes.append(length_note)
        if not stated:
            hi = cap_top(est, capped, hi, estimate)
    est.interval_bytes = (lo, hi)
    return est


def _gib(value: Optional[int]) -> str:
    return f"{(value or 0) / 2 ** 30:.2f} GiB"


def _estimate(inp: EstimateInput) -> Estimate:
    missing = missing_fields(inp)
    if missing:
        return Estimate(None, None, None, {}, missing=missing,
                        notes=["cannot estimate without: " + "; ".join(missing)])
    arch = inp.arch if inp.arch is not None else guessed_architecture(int(inp.params or 0))
    notes: list[str] = []
    if inp.model_impl == "litgpt" and getattr(arch, "tie_embeddings", False) and arch.vocab_size:
        arch = litgpt_untied(arch)
        notes.append("litgpt builds its own LM head next to the token embeddings (no weight tying): "
                     "the head is a separate, full-size weight")
    prm = _params(arch, inp.params)
    if prm.source == "guessed":
        notes.append(f"architecture guessed from {prm.total / 1e9:.3g}B parameters (Llama shape, "
                     f"{arch.num_layers} layers x {arch.hidden_size}); pass --model for a narrower interval")
    rel_p = C.PARAMS_REL.get(prm.source, 0.03)
    rel_a = C.ACTIVATIONS_REL["guessed" if prm.source == "guessed" else "known"]
    pb = (1 - rel_p, 1 + rel_p)
    ab_hi = 1 + rel_a
    if str(inp.sources.get("micro_batch", "")).startswith("assumed"):
        ab_hi *= C.ASSUMED_BATCH_HI
        notes.append("no micro-batch size found: assumed 1 (the interval's upper end allows 2)")
    ab = (1 - rel_a, ab_hi)
    if inp.compiled:
        ab = (ab[0] * (1 - C.COMPILE_ACTIVATIONS_LOW), ab_hi)
        notes.append("torch.compile: the RMSNorms' fp32 copies and the gated MLP's activation are "
                     "recomputed in backward, not saved (compiled_acts.py); other pointwise tensors may "
                     f"be too (the interval's low end allows {C.COMPILE_ACTIVATIONS_LOW:.0%} fewer "
                     "activations)")
    ph = _Phases()
    if inp.mode == "train":
        trainable = _train(inp, arch, prm, ph, pb, ab, notes)
        if inp.frozen_models:
            from preflight.estimate.frozen_models import add_frozen_models

            add_frozen_models(inp, arch, prm, ph, pb, ab, notes, _estimate)
        phases: tuple[str, ...] = ("forward", "backward", "optimizer")
    else:
        trainable = 0
        phases = inference_phases(inp, arch, prm, ph, pb, ab, notes)
    if _loading(inp, arch, prm, ph, pb, notes):
        phases = ("load", *phases)
    buffers = model_buffer_bytes(inp, arch)
    if buffers:
        ph.every(phases, "buffers", buffers, (1.0, 1.0))
        notes.append(f"transformers {inp.transformers_version} {arch.model_type}: per-layer "
                     f"causal-mask / rotary-table buffers, {buffers / 1e6:.0f} MB")
    own_table = position_table_bytes(inp, arch)     # hand-written code's own table (est63)
    if own_table:
        ph.every(phases, "buffers", own_table, (1.0, 1.0))
        notes.append(f"the model's own {inp.position_table} position table: {own_table / 1e6:.0f} MB")
    ctx_bytes, ctx_range = lazy_context(inp.gpu_threads)
    version = inp.torch_before
    if (version is not None and version < (1, 13)) or cuda_build_before_lazy(inp.torch_version):
        # no lazy module loading before torch 1.13, nor in a build for a CUDA runtime before
        # 11.7 (``+cu116``, est71): every kernel is loaded at start-up
        ctx_bytes, ctx_range = C.CUDA_CONTEXT_EAGER_BYTES, C.CUDA_CONTEXT_EAGER_RANGE
        notes.append(f"torch {inp.torch_version}: CUDA kernels loaded eagerly (no lazy loading "
                     f"before torch 1.13 or CUDA 11.7), context about {ctx_bytes / 2 ** 30:.1f} GiB")
    elif ((version is None and not inp.gpu_hopper)
          or (version is not None and version < C.LAZY_GUARANTEED_TORCH
              and inp.torch_version_pinned is not False)):
        # CUDA 11.x wheels also run on drivers older than R515, which have no lazy loading
        ctx_range = (ctx_range[0], max(ctx_range[1], C.CUDA_CONTEXT_EAGER_RANGE[1]))
        notes.append(f"torch {inp.torch_version or 'version unknown'}: a CUDA 11 build on a driver "
                     "older than R515 loads every kernel at start-up (no lazy loading); the "
                     f"interval allows a context up to {ctx_range[1] / 2 ** 30:.1f} GiB")
    ctx = (ctx_range[0] / ctx_bytes, ctx_range[1] / ctx_bytes)
    ph.every(phases, "cuda_context", ctx_bytes, ctx)
    # one workspace per thread's handle: the forward thread's and, in training, autograd's
    # device thread's; 8.125 MiB each before Hopper, the top covers Hopper's 32 MiB
    handles = 2 if inp.mode == "train" else 1
    old_blackwell = bool(inp.gpu_blackwell) and version is not None and version < C.BLACKWELL_32MIB_TORCH
    if inp.gpu_hopper and not old_blackwell:
        low = (C.CUBLAS_WORKSPACE_PRE_HOPPER_BYTES / C.CUBLAS_WORKSPACE_BYTES
               if inp.gpu_blackwell else 1.0)      # Blackwell: the release is not checked
        ph.every(phases, "cublas_workspace", handles * C.CUBLAS_WORKSPACE_BYTES, (low, 1.0))
    elif old_blackwell:
        ph.every(phases, "cublas_workspace", handles * C.CUBLAS_WORKSPACE_PRE_HOPPER_BYTES, (1.0, 1.0))
    else:
        pre = C.CUBLAS_WORKSPACE_PRE_HOPPER_BYTES
        top = 1.0 if inp.gpu_hopper is False else C.CUBLAS_WORKSPACE_BYTES / pre
        ph.every(phases, "cublas_workspace", handles * pre, (1.0, top))
    _nccl_buffers(inp, ph, phases, notes)
    result: dict[str, dict[str, int]] = {}
    lo_best = hi_best = 0.0
    cache = _length_cache(inp, ph, phases, notes)
    cache = _ddp_sync_cache(inp, ph, phases, notes, cache)
    # ZeRO-1/2: the step's partition-sized tensors take new segments beside backward's cached
    # blocks when none of those is as large (step_segments.py; reserved only)
    segs = step_segments(inp, arch, prm, ph.terms, _dtypes(inp)[0].comp)
    if segs:
        ph.add("optimizer", "step_segments", segs, (0.0, pb[1]))
        notes.append(f"ZeRO-{inp.zero_stage}'s optimizer step makes partition-sized tensors larger than any "
                     f"block backward freed: new segments beside backward's cached blocks, "
                     f"{segs / 1024 ** 3:.2f} GiB reserved above the step's tensors (released before an "
                     "out-of-memory error)")
    for phase in phases:
        allocated = {which: sum(v * (1.0 if which < 0 else ph.bound(phase, t, which))
                                for t, v in ph.terms[phase].items()
                                if t not in ("cuda_context", "nccl_buffers", "length_cache", "stream_cache",
                                             "pending_frees", "step_segments"))
                     for which in (-1, 0, 1)}
        frag, frag_hi = _fragmentation(inp, ph.terms[phase], allocated[-1], allocated[1])
        if frag > 0:
            ph.add(phase, "fragmentation", frag, (0.0, frag_hi / frag))
            ph.set_phase_bounds(phase, "fragmentation", (0.0, frag_hi / frag))
        result[phase] = {t: round(ph.terms[phase][t]) for t in TERMS if t in ph.terms[phase]}
        lo_best = max(lo_best, ph.total(phase, 0))
        hi_best = max(hi_best, ph.total(phase, 1))
    peak_phase = max(phases, key=lambda p: sum(result[p].values()))
    peak = sum(result[peak_phase].values())
    lo, hi = int(min(lo_best, peak)), int(max(hi_best, peak))
    hi += int(ph.managed * pb[1]) + int(ph.cache_top)
    lo = max(0, lo + int(ph.length_bottom))
    # the post-backward stream's cached gradient shards (FSDP CPU offload) are released before
    # an out-of-memory error like the cached blocks of other lengths
    pool = float(result[peak_phase].get("stream_cache", 0) + result[peak_phase].get("pending_frees", 0)
                 + result[peak_phase].get("step_segments", 0))
    cache = (cache[0], cache[1] + pool, cache[2] + pool * pb[1])
    outside = [t for t in OUTSIDE_ALLOCATOR if t in ph.terms[peak_phase]]
    outside_bounds = tuple(int(sum(ph.terms[peak_phase][t] * (1.0 if which < 0 else
                                                               ph.bound(peak_phase, t, which))
                                   for t in outside)) for which in (0, -1, 1))
    return Estimate(peak_bytes=peak, interval_bytes=(lo, hi), phase=peak_phase,
                    breakdown=dict(result[peak_phase]), phases=result, notes=notes,
                    params_total=prm.total, params_trainable=trainable,
                    arch_name=str(getattr(arch, "name", "")), arch_source=prm.source,
                    workspace_in_allocator=version is None or version >= (2, 0),
                    reclaimable=(int(cache[0]), round(cache[1]), int(cache[2])),
                    paged_bytes=round(ph.managed),
                    outside_allocator=(outside_bounds[0], outside_bounds[1], outside_bounds[2]))


def _nccl_buffers(inp: EstimateInput, ph: _Phases, phases: tuple[str, ...], notes: list[str]) -> None:
    """NCCL's connection buffers on each GPU of a data-parallel job (``nccl.py``): outside the
    caching allocator, so in nvidia-smi's figure and the verdict, not in reserved memory."""
    from preflight.estimate import nccl

    if inp.mode != "train":
        return
    low, point, high = nccl.buffer_bytes(int(inp.world_size or 1), inp.gpu_link)
    if point <= 0:
        return
    ph.every(phases, "nccl_buffers", point, (low / point, high / point))
    link = {"nvlink": "NVLink", "nvlink-volta": "NVLink", "pcie": "PCIe"}.get(str(inp.gpu_link),
                                                                          "unknown links")
    notes.append(f"NCCL's communicator buffers ({link}): about {_gib(point)} per GPU outside "
                 f"PyTorch's allocator (nvidia-smi counts them, memory_reserved does not; "
                 f"{_gib(low)} .. {_gib(high)})")


def _fragmentation(inp: EstimateInput, terms: dict[str, float], allocated: float,
                   allocated_hi: float) -> tuple[float, float]:
    """(point, high) bytes of reserved-but-unallocated memory in a phase: ``FRAGMENTATION`` of
    what is allocated, and in training at least ``STEP_CACHE_RATIO`` of the phase's transient
    length-dependent tensors (``length_cache.LENGTH_TERMS``), the free remainders that the
    step's freed blocks leave in the allocator's segments even when every batch has the same
    length (``constants.STEP_CACHE_RATIO``)."""
    from preflight.estimate.length_cache import step_bytes

    point = allocated * C.FRAGMENTATION
    high = allocated_hi * C.FRAGMENTATION_RANGE[1]
    if inp.mode == "train":
        step = step_bytes(terms)
        point = max(point, step * C.STEP_CACHE_RATIO)
        high = max(high, step * C.STEP_CACHE_HI)
    return point, high


def _ddp_sync_cache(inp: EstimateInput, ph: _Phases, phases: tuple[str, ...], notes: list[str],
                    cache: tuple[float, float, float]) -> tuple[float, float, float]:
    """DDP's start-up broadcast of every parameter (``ddp_sync.py``): the interval's top and the
    reclaimable top only."""
    from preflight.estimate import ddp_sync

    stored = max((t.get("weights", 0.0) + t.get("lora_adapters", 0.0) for t in ph.terms.values()),
                 default=0.0)
    top = ddp_sync.cache_top(inp, stored)
    if top <= 0:
        return cache
    ph.cache_top += top
    notes.append(f"DDP broadcasts every parameter (frozen ones too) in 250 MB flat copies when it "
                 f"wraps the model: the caching allocator may keep up to {_gib(int(top))} of them "
                 "reserved (the interval's top; released before an out-of-memory error)")
    return cache[0], cache[1], cache[2] + top


def _layer_transient(terms: dict[str, float]) -> float:
    return terms.get("activation_recompute", 0.0) + terms.get("backward_transient", 0.0)


def _length_cache(inp: EstimateInput, ph: _Phases, phases: tuple[str, ...],
                  notes: list[str]) -> tuple[float, float, float]:
    """Cached blocks of other sequence lengths under dynamic padding (``length_cache.py``)."""
    from preflight.estimate import length_cache

    if not length_cache.applies(inp):
        return (0.0, 0.0, 0.0)
    step = max(length_cache.step_bytes(ph.terms.get(p, {}))
               - min(ph.fixed_transient, _layer_transient(ph.terms.get(p, {}))) for p in phases)
    bottom, point, hi = length_cache.cache_bytes(step, inp)
    if step <= 0:
        return (0.0, 0.0, 0.0)
    ph.length_bottom = min(bottom, 0.0)
    if point > 0:
        ph.every(phases, "length_cache", point, (max(bottom, 0.0) / point, hi / point))
    else:
        ph.cache_top += hi
    # est39: the part held in segments still partly in use is not released before an OOM
    k_point, k_high = length_cache.kept_ratios(inp)
    kept, kept_hi = min(step * k_point, point), min(step * k_high, hi)
    cut = {"truncate": "samples over the cap cut", "delete": "samples over the cap dropped"}.get(
        str(getattr(inp, "truncation", None)), "")
    setting = ", ".join(x for x in ("grouped by length" if inp.group_by_length else "",
                                    "expandable segments" if inp.expandable_segments else "", cut) if x)
    notes.append(f"batches of varying length (dynamic padding{': ' + setting if setting else ''}): "
                 f"the caching allocator keeps blocks of lengths it served, about {_gib(int(point))} "
                 f"reserved above the allocated peak (up to {_gib(int(hi))}). The allocator releases "
                 "only wholly free segments before an out-of-memory error: the verdict counts "
                 f"{_gib(int(kept))} (up to {_gib(int(kept_hi))}) left in segments still partly in use "
                 "and leaves the rest out. The data's lengths are not "
                 f"known: the longest batch may stay under data.seq_len (the interval reaches "
                 f"{_gib(int(-ph.length_bottom))} below the estimate at the cap)")
    return max(bottom, 0.0), point - kept, hi - kept_hi


# --------------------------------------------------------------------------- loading


def _loading(inp: EstimateInput, arch: Any, prm: _Params, ph: _Phases,
             pb: tuple[float, float], notes: list[str]) -> bool:
    """The load phase, when loading can hold more than the step does (True if added).

    * The whole model on every GPU before it is sharded (``load_placement="gpu"``):
      DeepSpeed's engine runs ``self.module.to(self.device)`` for a ZeRO-3 model not built
      under ``zero.Init`` (``_configure_distributed_model``: "zero.Init() handles device
      placement of model"), then each parameter's partition is copied out of it and its
      whole copy freed, one at a time (on the GPU, or in host memory under parameter
      offload: :mod:`zero3_load`); a
      model placed with ``device_map`` or ``.to("cuda")`` before FSDP wraps it is flattened
      unit by unit next to itself. Peak: the whole model in its loaded dtype plus the
      largest tensor's partition (ZeRO-3 without parameter offload) or one unit (FSDP).
    * A quantized base (bitsandbytes through transformers or Lightning): each weight
      arrives in 16 bits and is quantized on the GPU one tensor at a time
      (``Params4bit._quantize``: ``w = self.data.contiguous().to(device)``): the quantized
      weights so far plus the largest matrix in 16 bits; torchtune's torchao NF4 quantizes each
      checkpoint tensor on the GPU after the whole 4-bit model is built, with the quantizer's own
      intermediates beside the 16-bit copy (:mod:`nf4_quantize`).
    """
    if inp.mode != "train" and not inp.quant:
        return False
    if inp.zero_stage and inp.precision.startswith("amp") and not inp.quant:
        # DeepSpeed casts the module to its 16-bit dtype before moving it to the GPU
        inp = replace(inp, precision=inp.precision[4:])
    _, base_bytes, other_bytes = _dtypes(inp)
    sharded = inp.world_size > 1 and (inp.zero_stage >= 3 or inp.fsdp in ("full", "hybrid"))
    n = _shard_count(inp)
    whole = stored_weights(inp, prm, base_bytes, other_bytes)
    if inp.quant == "8bit":
        whole += (arch.num_layers + arch.num_encoder_layers) * 7 * arch.hidden_size * 4
    if inp.load_placement == "gpu" and sharded:
        extra = (load_shard_on_gpu(inp, prm.largest * max(base_bytes, other_bytes), n) if inp.zero_stage >= 3
                 else prm.layer * base_bytes)
        ph.add("load", "weights", whole, pb)
        ph.add("load", "load_transient", extra, pb)
        if inp.zero_stage >= 3:
            notes.append(load_note(inp, _gib(int(whole))))
        return True
    held = transient = 0.0
    if inp.quant and not (sharded and inp.load_placement == "sharded"):
        largest = max(arch.hidden_size * max(arch.intermediate_size, arch.moe_intermediate_size or 0),
                      arch.hidden_size * arch.num_heads * arch.head_dim)
        # (FSDP with parameter offload moves each unit's shard to host memory once it is
        # flattened: only the running unit is on the GPU)
        held = (prm.layer * base_bytes if (sharded and inp.offload_params)
                else whole / (n if sharded else 1))
        transient = quantize_transient(inp, largest)   # the 16-bit copy and the quantizer's own (nf4_quantize.py)
    # FSDP1 flattening its largest unit (the root of a large vocabulary) beside the unit's own
    # parameters, after the quantization above (terms.fsdp1_wrap_peak); the larger of the two
    root = (prm.embeddings + prm.lm_head) * other_bytes
    constants = fsdp_quant_constants(inp, prm.quantizable, base_bytes, n) if sharded else 0.0
    w_held, w_transient = fsdp1_wrap_peak(inp, root, prm.layer * base_bytes, whole, constants, n)
    if w_held + w_transient > held + transient:
        held, transient = w_held, w_transient
        notes.append(f"FSDP1 start-up: the largest unit ({_gib(int(w_transient / (2 + 1 / n)))}) is on "
                     "the GPU whole while its FlatParameter is concatenated beside it and the "
                     f"rank's shard cloned from that, over {_gib(int(w_held))} already there; the "
                     "caching allocator keeps those blocks")
    if held + transient <= 0:
        return False
    ph.add("load", "weights", held, pb)
    ph.add("load", "load_transient", transient, pb)
    return True


# --------------------------------------------------------------------------- training
