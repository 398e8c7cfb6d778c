"""The estimate as text and as the versioned JSON document (``version`` 1).

JSON keys (stable; the gate and other tools build on them)::

    version, peak_bytes, interval_bytes [lo, hi], phase, breakdown {term: bytes},
    phases {phase: {term: bytes}}, plan {field: {value, source}}, model {...},
    gpu {...} | null, verdict, remediations [{changes, saved_bytes, new_peak_bytes, fits,
    verdict, description, cost}], cheapest_gpu, cheapest_instance, missing [...], notes [...]
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from preflight.estimate.inputs import EstimateInput
from preflight.estimate.model import Estimate
from preflight.estimate.remedy import Remediation, held_phase, target_memory

JSON_VERSION = 1

_PLAN_FIELDS = ("mode", "precision", "weights_bits", "optimizer", "micro_batch", "grad_accum",
                "seq_len", "image_size", "grad_ckpt", "attention", "zero_stage", "fsdp",
                "offload_optimizer", "offload_params", "world_size", "lora_r", "lora_targets",
                "quant", "max_new_tokens", "num_beams", "load_placement")
_PHASE_WORDS = {"forward": "the forward pass", "backward": "the backward pass",
                "optimizer": "the optimizer step", "prefill": "prefill",
                "head": "the LM head over the prompt",
                "first_decode": "the first decoding step", "decode": "decoding",
                "load": "loading (before the first step)"}


def gib(n: float) -> str:
    return f"{n / 1024 ** 3:.2f} GiB"


def count(n: float) -> str:
    """``8.03B``, ``6.82M``, ``512K``."""
    for unit, scale in (("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g}{unit}"
    return str(int(n))


def _target_dict(target: Any) -> Optional[dict[str, Any]]:
    if target is None:
        return None
    gpu = getattr(target, "gpu", None)
    if gpu is not None:  # an Instance
        return {"name": gpu.name, "memory_bytes": int(gpu.memory_bytes), "instance": target.name,
                "provider": getattr(target, "provider", None), "count": int(target.count),
                "hourly_usd": getattr(target, "hourly_usd", None)}
    return {"name": target.name, "memory_bytes": int(target.memory_bytes), "instance": None,
            "provider": None, "count": 1, "hourly_usd": None}


def estimate_json(inp: EstimateInput, est: Estimate, *, target: Any = None,
                  verdict: str = "unknown", remediations: Sequence[Remediation] = (),
                  cheapest_gpu: Any = None, cheapest_instance: Any = None) -> dict[str, Any]:
    """The JSON document of issue 5 (``version`` 1)."""
    plan: dict[str, Any] = {}
    arch = inp.arch
    plan["model"] = {"value": est.arch_name or (getattr(arch, "name", None) if arch else None),
                     "source": inp.sources.get("arch", inp.sources.get("params", "default"))}
    plan["params"] = {"value": est.params_total or inp.params, "source": est.arch_source
                      or inp.sources.get("params", "default")}
    for name in _PLAN_FIELDS:
        value = getattr(inp, name)
        if isinstance(value, tuple):
            value = list(value)
        plan[name] = {"value": value, "source": inp.sources.get(name, "default")}
    return {
        "version": JSON_VERSION,
        "peak_bytes": est.peak_bytes,
        "interval_bytes": list(est.interval_bytes) if est.interval_bytes else None,
        "phase": est.phase,
        "breakdown": dict(est.breakdown),
        "phases": {p: dict(t) for p, t in est.phases.items()},
        "plan": plan,
        "model": {"name": est.arch_name or None, "params_total": est.params_total or None,
                  "params_trainable": est.params_trainable if est.ok else None,
                  "params_source": est.arch_source or None},
        "gpu": _target_dict(target),
        "verdict": verdict,
        "remediations": [r.to_dict() for r in remediations],
        "cheapest_gpu": _target_dict(cheapest_gpu),
        "cheapest_instance": _target_dict(cheapest_instance),
        "missing": list(est.missing),
        "notes": list(est.notes),
    }


def _job_line(inp: EstimateInput) -> str:
    parts = [inp.mode, inp.precision]
    if inp.mode == "train":
        parts.append(inp.optimizer)
    if inp.quant:
        parts.append(f"{inp.quant} weights")
    if inp.lora:
        parts.append(f"LoRA r={inp.lora_r}")
    family = getattr(inp.arch, "family", "decoder")
    shape = f"micro-batch {inp.micro_batch}"
    image = inp.image_size or (getattr(inp.arch, "image_size", 0) if family in ("vision", "cnn") else 0)
    if inp.seq_len and family not in ("vision", "cnn"):
        shape += f" x {inp.seq_len} tokens"
    if image:
        shape += f" x {image}px"
    parts.append(shape)
    if inp.mode == "generate":
        parts.append(f"{inp.max_new_tokens} new tokens, {inp.num_beams} beam(s)")
    if family != "cnn":
        parts.append(inp.attention)
    if inp.grad_ckpt and inp.mode == "train":
        parts.append("gradient checkpointing")
    if inp.frozen_models and inp.mode == "train":
        parts.append(f"{inp.frozen_models} frozen cop{'ies' if inp.frozen_models > 1 else 'y'} (reference)"
                     + (" offloaded" if inp.frozen_offload else ""))
    sharding = inp.sharding
    gpus = f"{inp.world_size} GPU" + ("s" if inp.world_size > 1 else "")
    if sharding not in ("none",):
        gpus += f" ({sharding})"
    for what in ("offload_optimizer", "offload_params"):
        value = getattr(inp, what)
        if value:
            gpus += f", {what.replace('_', ' ')} to {value}"
    parts.append(gpus)
    return ", ".join(parts)


# The bar's groups of terms: letter, legend, terms.
_BAR_GROUPS = (
    ("W", "weights", ("weights", "buffers", "lora_adapters", "master_weights", "autocast_weight_cache",
                      "gathered_params", "load_transient", "denoiser_weights", "text_encoders", "vae",
                      "lora_weights", "ema_copy", "autocast_weight_casts", "frozen_weights")),
    ("G", "gradients", ("gradients", "ddp_buckets", "zero_buckets")),
    ("O", "optimizer", ("optimizer_states", "optimizer_temporaries")),
    ("A", "activations", ("activations", "activation_recompute", "backward_transient",
                          "dequant_transient", "logits_loss", "held_outputs", "kv_cache", "prefill_transient",
                          "activations_and_gradients", "recompute", "latents", "vae_activations",
                          "frozen_forward")),
    ("X", "CUDA context, workspace, fragmentation", ()),
)
BAR_WIDTH = 40


def memory_bar(breakdown: dict[str, int], phase: Optional[str], capacity: int, gpu: str, *,
               color: bool = False, indent: str = "  ") -> list[str]:
    """The peak's breakdown as a bar against one GPU's memory: three lines, plain text
    (letters; colour only when ``color``)::

        Peak on L4-24GB, backward phase: 18.30 of 22.10 GiB, headroom 3.80 GiB (17%)
          [WWWWWWWWWGGGGGGGGGOOOOOOOOOOOOAAAAXX....]
          W weights  G gradients  O optimizer  A activations  X CUDA context, ...  . free
    """
    from preflight.report.color import bar

    grouped: list[tuple[str, float]] = []
    known = {t for _, _, terms in _BAR_GROUPS for t in terms}
    for letter, _, terms in _BAR_GROUPS:
        value = (sum(v for t, v in breakdown.items() if t in terms) if terms
                 else sum(v for t, v in breakdown.items() if t not in known))
        grouped.append((letter, float(value)))
    total = sum(v for _, v in grouped)
    g = 1024 ** 3
    room = capacity - total
    share = f"{abs(room) / capacity:.0%}" if capacity else "?"
    head = (f"headroom {room / g:.2f} GiB ({share})" if room >= 0
            else f"over by {-room / g:.2f} GiB ({share} more than the GPU has)")
    where = f"{phase} phase" if phase else "peak"
    legend = "  ".join(f"{letter} {words}" for letter, words, _ in _BAR_GROUPS
                       if any(v for l2, v in grouped if l2 == letter))
    legend += "  . free" if room > 0 else "  | the GPU's memory ends  ! over it"
    return [f"Peak on {gpu}, {where}: {total / g:.2f} of {capacity / g:.2f} GiB, {head}",
            f"{indent}[{bar(grouped, float(capacity), BAR_WIDTH, color)}]",
            f"{indent}{legend}"]


def estimate_text(inp: EstimateInput, est: Estimate, *, target: Any = None,
                  verdict: str = "unknown", remediations: Sequence[Remediation] = (),
                  cheapest_gpu: Any = None, cheapest_instance: Any = None,
                  color: bool = False) -> str:
    lines: list[str] = []
    if not est.ok:
        lines.append("Cannot estimate: missing " + "; ".join(est.missing))
        lines.extend(f"  note: {n}" for n in est.notes if not n.startswith("cannot estimate"))
        return "\n".join(lines) + "\n"
    assert est.peak_bytes is not None and est.interval_bytes is not None
    trainable = ""
    if inp.mode == "train":
        trainable = f", {count(est.params_trainable)} trainable"
    lines.append(f"Model: {est.arch_name} ({count(est.params_total)} parameters, "
                 f"{est.arch_source}{trainable})")
    lines.append(f"Job: {_job_line(inp)}")
    lo, hi = est.interval_bytes
    lines.append(f"Peak per GPU: {gib(est.peak_bytes)} (interval {gib(lo)} .. {gib(hi)}) "
                 f"during {_PHASE_WORDS.get(est.phase or '', est.phase)}")
    pool = est.breakdown.get("stream_cache", 0)
    pending = est.breakdown.get("pending_frees", 0)
    segs = est.breakdown.get("step_segments", 0)
    released = est.reclaimable[1] - pool - pending - segs
    if released > 0:
        lines.append(f"  of which {gib(released)} cached blocks of other batch lengths: "
                     "released before an out-of-memory error, not counted by the verdict")
    kept = est.breakdown.get("length_cache", 0) - max(released, 0)
    if kept > 0:
        lines.append(f"  of which {gib(kept)} cached blocks of other batch lengths in segments still partly "
                     "in use: the allocator cannot release them, counted by the verdict")
    if pool > 0:
        lines.append(f"  of which {gib(pool)} cached for another CUDA stream (FSDP: the post-backward "
                     "stream's gradient shards; ZeRO-1/2 offload: the reduction stream's gradient "
                     "copies; the compute stream's blocks and these are never shared): "
                     "released before an out-of-memory error, not counted by the verdict")
    if segs > 0:
        lines.append(f"  of which {gib(segs)} backward's cached blocks, too small for the ZeRO step's "
                     "partition-sized tensors (new segments beside them): released before an "
                     "out-of-memory error, not counted by the verdict")
    if pending > 0:
        lines.append(f"  of which {gib(pending)} freed blocks waiting for the GPU to pass them (FSDP1 "
                     "without its rate limiter: units gathered ahead by the CPU): reserved, not "
                     "allocated, released before an out-of-memory error, not counted by the verdict")
    held, where = held_phase(est)
    if where != est.phase and held > est.peak_bytes - est.reclaimable[1]:
        lines.append(f"  the verdict counts {gib(held)} during {_PHASE_WORDS.get(where or '', where)}: "
                     "the most any phase holds once those cached blocks are released")
    if est.paged_bytes > 0:
        lines.append(f"  not counted: {gib(est.paged_bytes)} paged optimizer states in CUDA managed "
                     "memory (outside PyTorch's allocator; moved to host memory when the GPU "
                     "runs short; in the interval's top)")
    width = max((len(t) for t in est.breakdown), default=10)
    for term, value in est.breakdown.items():
        lines.append(f"  {term:<{width}}  {gib(value):>12}")
    other = [p for p in est.phases if p != est.phase]
    if other:
        lines.append("Other phases: " + ", ".join(
            f"{p} {gib(sum(est.phases[p].values()))}" for p in other))
    if target is not None:
        t = _target_dict(target)
        assert t is not None
        where = t["name"] if not t["instance"] else f"{t['instance']} ({t['count']} x {t['name']})"
        lines.append(f"Target: {where}, {gib(target_memory(target))} per GPU: {verdict}")
        lines.extend(memory_bar(est.breakdown, est.phase, target_memory(target), t["name"],
                                color=color))
    else:
        lines.append("Target: none given (--gpu NAME|INSTANCE or target-gpu in [tool.preflight])")
    if remediations:
        lines.append("Changes that reduce the peak (GiB saved each):")
        for r in remediations:
            mark = "fits" if r.fits else r.verdict
            lines.append(f"  - {r.description}: -{gib(r.saved_bytes)} -> {gib(r.new_peak_bytes)} "
                         f"[{mark}]; cost: {r.cost}")
    if cheapest_gpu is not None or cheapest_instance is not None:
        lines.append("Cheapest that fits as configured: "
                     + (f"GPU {cheapest_gpu.name} ({gib(cheapest_gpu.memory_bytes)})"
                        if cheapest_gpu is not None else "no single catalog GPU")
                     + ("; instance " + f"{cheapest_instance.name} ({cheapest_instance.count} x "
                        f"{cheapest_instance.gpu.name}, ${cheapest_instance.hourly_usd}/h)"
                        if cheapest_instance is not None else ""))
    for note in est.notes:
        lines.append(f"Note: {note}")
    return "\n".join(lines) + "\n"
