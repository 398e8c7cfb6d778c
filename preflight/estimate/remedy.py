"""What would make a job fit: single changes with the GiB each saves, the cheapest
combination that fits, and the cheapest catalog GPU or cloud instance that holds the job
as configured."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from preflight.estimate.generate_loop import cache_class_release
from preflight.estimate.inputs import EstimateInput
from preflight.estimate.model import Estimate, estimate
from preflight.estimate.terms import (
    SDPA_DEFAULT_FROM_TORCH,
    SDPA_FROM_TRANSFORMERS,
    _transformers_minor,
    grads_through_forward,
    loss_compiled,
    sdpa_not_default,
    zero3_keeps_linear,
    zero12_offload_step_copy,
)
from preflight.estimate.trained_embeddings import applies as tables_train


def _version_key(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("+")[0].split(".")[:3] if p.isdigit()) or (0,)


VERDICTS = ("fits", "tight", "likely-oom", "oom", "unknown")


def target_memory(target: Any) -> int:
    """Memory of ONE GPU of ``target`` (a hardware GPU or Instance)."""
    gpu = getattr(target, "gpu", None) or target
    return int(gpu.memory_bytes)


#: the pools whose blocks are wholly free segments, released before an out-of-memory error:
#: ``model.estimate`` adds the peak phase's to ``Estimate.reclaimable`` (its ``pool``)
RELEASED_POOLS = ("stream_cache", "pending_frees", "step_segments")


def held_phase(est: Estimate) -> tuple[int, Optional[str]]:
    """(bytes, phase) of the point the verdict compares with the card: in every phase, the
    phase's bytes less what the allocator releases before an out-of-memory error there (the
    length cache's releasable part, the same in every phase that holds it, and that phase's own
    released pools), the largest of those (est74). ``Estimate.reclaimable`` is the PEAK phase's:
    a phase below the peak that holds no such pool (an optimizer step after a backward whose
    peak is pending frees) can hold more than the peak phase once the pools are released."""
    assert est.peak_bytes is not None
    r_point = est.reclaimable[1]
    held, where = est.peak_bytes - r_point, est.phase
    phases = getattr(est, "phases", None) or {}
    peak_terms = phases.get(est.phase or "", {})
    length_released = max(r_point - sum(peak_terms.get(t, 0) for t in RELEASED_POOLS), 0)
    for name, terms in phases.items():
        released = (min(length_released, terms.get("length_cache", 0))
                    + sum(terms.get(t, 0) for t in RELEASED_POOLS))
        if sum(terms.values()) - released > held:
            held, where = sum(terms.values()) - released, name
    return held, where


def held_point(est: Estimate) -> int:
    """The bytes of :func:`held_phase`."""
    return held_phase(est)[0]


def verdict(est: Estimate, target: Any, usable_fraction: float = 1.0) -> str:
    """``fits`` when the whole interval fits, ``tight`` when the point estimate fits but
    the interval's top does not, ``likely-oom`` when only the interval's bottom fits,
    ``oom`` when even the bottom does not; ``unknown`` without an estimate or target. Each
    figure is less what the allocator releases before an out-of-memory error; the point is
    :func:`held_phase`'s (the largest phase once released), and the top is at least that."""
    if not est.ok or est.interval_bytes is None or target is None:
        return "unknown"
    memory = target_memory(target) * usable_fraction
    lo, hi = est.interval_bytes
    assert est.peak_bytes is not None
    # cached blocks the allocator releases before an OOM (length_cache) never make a job fail
    r_lo, _, r_hi = est.reclaimable
    lo, hi, peak = lo - r_lo, hi - r_hi, held_point(est)
    hi = max(hi, peak)   # never "fits" where the held point does not
    if hi <= memory:
        return "fits"
    if peak <= memory:
        return "tight"
    if lo <= memory:
        return "likely-oom"
    return "oom"


@dataclass
class Remediation:
    changes: list[str]
    description: str
    cost: str
    saved_bytes: int
    new_peak_bytes: int
    fits: bool
    verdict: str
    rank: int = 0
    flags: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"changes": list(self.changes), "description": self.description, "cost": self.cost,
                "saved_bytes": self.saved_bytes, "new_peak_bytes": self.new_peak_bytes,
                "fits": self.fits, "verdict": self.verdict}


@dataclass(frozen=True)
class _Candidate:
    key: str
    rank: int                   # rising cost: 1 free .. 9 expensive
    change: str                 # what the user does, in words
    flags: tuple[str, ...]      # the CLI flags that express it
    cost: str
    apply: Callable[[EstimateInput], Optional[EstimateInput]]
    conflicts: tuple[str, ...] = ()


def _candidates(inp: EstimateInput) -> list[_Candidate]:
    train = inp.mode == "train"
    out: list[_Candidate] = []

    def add(key: str, rank: int, change: str, flags: tuple[str, ...], cost: str,
            apply: Callable[[EstimateInput], Optional[EstimateInput]], conflicts: tuple[str, ...] = ()) -> None:
        out.append(_Candidate(key, rank, change, flags, cost, apply, conflicts))

    if inp.attention == "eager":
        add("sdpa", 1, "use SDPA attention (attn_implementation=\"sdpa\")", ("--attention sdpa",),
            "none: same results up to rounding, usually faster",
            lambda i: i.with_changes(attention="sdpa"))
    if sdpa_not_default(inp):
        # transformers before 4.36 has no SDPA path, and 4.36+ picks it by default from torch
        # 2.1.1 (terms.sdpa_not_default): the versions are the change, not a flag
        def upgraded(i: EstimateInput) -> Optional[EstimateInput]:
            changes: dict[str, str] = {}
            version = _transformers_minor(i)
            if version is not None and version < SDPA_FROM_TRANSFORMERS:
                changes["transformers_version"] = "4.36.0"
            if i.torch_version and _version_key(str(i.torch_version)) < SDPA_DEFAULT_FROM_TORCH:
                changes["torch_version"] = "2.1.1"
            return i.with_changes(**changes) if changes else None
        add("sdpa436", 1, "upgrade to transformers 4.36 and torch 2.1.1 or later (SDPA attention "
            "by default: the attention probabilities are no longer stored)",
            ("--transformers-version 4.36",), "a library upgrade: check the job's other pins",
            upgraded)
    if train and inp.trained_embeddings == "resized" and tables_train(inp):
        # resize_token_embeddings after the adapter, before transformers 4.35, left the tables
        # trainable (trained_embeddings.py): freezing them again is qlora's own fix (5111741)
        add("freeze_tables", 1, "freeze the resized embeddings and LM head (requires_grad=False "
            "after resize_token_embeddings, resize before get_peft_model, or transformers 4.35+)",
            ("--transformers-version 4.35",),
            "none, unless the added tokens' rows must learn (then train them on purpose)",
            lambda i: i.with_changes(trained_embeddings=None))
    if train and inp.frozen_models > 0:
        # a reference model beside the policy (frozen_models.py): its log-probabilities can be
        # computed once before training (TRL precompute_ref_log_probs: no copy kept), or its
        # weights kept in host memory (OpenRLHF --ref_offload, DeepSpeed offload_param)
        add("ref_precompute", 1, "precompute the reference model's log-probabilities before training "
            "(TRL DPOConfig(precompute_ref_log_probs=True)): no reference copy is kept",
            ("--frozen-models 0",), "one extra forward pass over the data first; the reference is fixed",
            lambda i: i.with_changes(frozen_models=0))
        if not inp.frozen_offload:
            add("ref_offload", 2, "keep the reference model's weights in host memory (OpenRLHF "
                "--ref_offload, DeepSpeed offload_param in the reference's config)", ("--frozen-offload",),
                "a slower reference forward (its weights stream from host memory)",
                lambda i: i.with_changes(frozen_offload=True))
    if inp.mode == "generate" and inp.legacy_kv_cache:
        since = cache_class_release(inp)
        add("dyncache", 1, f"upgrade transformers to {since} or later (generate holds the KV cache in "
            "one DynamicCache instead of copying legacy tuples each step)",
            (f"--transformers-version {since}",), "a library upgrade: check the job's other pins",
            lambda i: i.with_changes(transformers_version=since))
    version = _transformers_minor(inp)
    if (train and version is not None and (4, 46) <= version < (4, 49) and inp.loss == "standard"
            and not loss_compiled(inp) and _has_lm_logits(inp)):
        add("loss449", 1, "upgrade transformers to 4.49 or later (the causal-LM loss no longer "
            "copies the shifted fp32 logits)", ("--transformers-version 4.49",),
            "a library upgrade: check the job's other pins",
            lambda i: i.with_changes(transformers_version="4.49"))
    if train and zero12_offload_step_copy(inp, 1.0, 1):
        add("ds017", 1, "upgrade DeepSpeed to 0.17.0 or later (the offloaded ZeRO-1/2 step writes "
            "the weights back through a pinned 16-bit host buffer, not an fp32 copy of the "
            "partition on the GPU)", ("--deepspeed-version 0.17.0",),
            "a library upgrade: check the job's other pins",
            lambda i: i.with_changes(deepspeed_version="0.17.0"))
    if train and zero3_keeps_linear(inp):
        add("ds0194", 1, "upgrade DeepSpeed to 0.19.4 or later (deepspeed.initialize then installs "
            "ZeRO-3's memory-efficient Linear for a model built outside zero.Init, so gathered "
            "weights are freed after each block's forward)", ("--deepspeed-version 0.19.4",),
            "a library upgrade: check the job's other pins",
            lambda i: i.with_changes(deepspeed_version="0.19.4"))
        add("zero_init", 1, "build the model inside deepspeed.zero.Init (with transformers: create "
            "the TrainingArguments or HfDeepSpeedConfig with the ZeRO-3 config before "
            "from_pretrained), which installs the memory-efficient Linear and loads each rank's "
            "shard only", ("--load-placement sharded",), "none: same results",
            lambda i: i.with_changes(load_placement="sharded"))
    if train and inp.zero_client_optimizer and not inp.offload_optimizer:
        # ZeRO steps the Trainer's optimizer on flat partitions (zero_client_optim): DeepSpeed's
        # own AdamW (FusedAdam, from an optimizer block) updates them in place
        add("ds_optimizer", 1, "add an `optimizer` block (\"type\": \"AdamW\") to the DeepSpeed "
            "config: DeepSpeed's FusedAdam updates the partition in place, the Trainer's optimizer "
            "makes partition-sized temporaries", (), "none: the same AdamW update (move lr, betas, "
            "eps and weight decay into the block)",
            lambda i: i.with_changes(zero_client_optimizer=False))
    if train and inp.keeps_outputs:
        add("drop_outputs", 1, "do not keep the model's outputs across steps (keep only the "
            "loss, or `del outputs` after backward): the previous step's logits and cache are "
            "freed before the next forward", (), "none: same results",
            lambda i: i.with_changes(keeps_outputs=False))
    if train and grads_through_forward(inp):
        add("zero_grad_early", 1, "call optimizer.zero_grad() before the forward (or right after "
            "optimizer.step()), not between the forward and backward: the previous step's "
            "gradients are freed before the next forward", (), "none: same results",
            lambda i: i.with_changes(zero_grad_after_forward=False))
    if train and inp.precision == "fp32":
        add("amp", 1, "train with bf16 autocast (bf16=True / mixed_precision=\"bf16\")",
            ("--precision amp-bf16",), "needs a bf16 GPU (Ampere or newer); faster; "
            "small numeric differences", lambda i: i.with_changes(precision="amp-bf16"))
    if train and not inp.grad_ckpt:
        add("ckpt", 2, "enable gradient checkpointing", ("--grad-ckpt",),
            "about 20-35% slower steps (each layer's forward runs twice)",
            lambda i: i.with_changes(grad_ckpt=True))
    if train and inp.optimizer in ("adamw", "adamw-fused", "paged-adamw"):
        add("adam8", 2, "use 8-bit AdamW (bitsandbytes, optim=\"adamw_bnb_8bit\")",
            ("--optimizer adamw-8bit",), "needs bitsandbytes; final quality on par with 32-bit "
            "AdamW in published fine-tuning results", lambda i: i.with_changes(optimizer="adamw-8bit"),
            ("paged8",))
        add("paged8", 3, "use paged 8-bit AdamW (optim=\"paged_adamw_8bit\")",
            ("--optimizer paged-adamw-8bit",), "needs bitsandbytes; states may page to host memory "
            "under pressure (slower steps when they do)",
            lambda i: i.with_changes(optimizer="paged-adamw-8bit"), ("adam8",))
    if train and inp.loss in ("standard", "chunked") and _has_lm_logits(inp):
        add("fused_loss", 2, "compute the loss with a fused linear cross-entropy (Liger "
            "use_liger_kernel=True, torchtune LinearCrossEntropyLoss, Unsloth): no full logits",
            ("--loss fused",), "needs liger-kernel (or the framework's fused loss); same loss "
            "values", lambda i: i.with_changes(loss="fused"))
    if inp.micro_batch > 1:
        def smaller(i: EstimateInput) -> Optional[EstimateInput]:
            mb = max(1, i.micro_batch // 2)
            factor = i.micro_batch // mb
            return i.with_changes(micro_batch=mb, grad_accum=i.grad_accum * factor)

        mb = max(1, inp.micro_batch // 2)
        add("microbatch", 2, f"halve the micro-batch to {mb} and double gradient accumulation "
            "(same global batch)", (f"--batch-size {mb}",),
            "same global batch and results; lower GPU utilisation, slower steps" if train
            else "fewer sequences per call: lower throughput", smaller)
    if train and inp.precision.startswith("amp") and not inp.quant and inp.weights_bits != 16:
        add("bf16", 4, "load the weights in bf16 (pure bf16 training)", ("--precision bf16",),
            "bf16 weights and optimizer states lose update precision on long runs "
            "(use an fp32-master optimizer or ZeRO to keep it)",
            lambda i: i.with_changes(precision="bf16"))
    if train and inp.world_size > 1 and inp.fsdp == "grad-op":
        # SHARD_GRAD_OP / reshard_after_forward=False holds every unit gathered from its forward
        # to its backward (terms_fsdp.grad_op_gathered); FULL_SHARD frees each after its forward
        add("fsdp_reshard", 2, "reshard after forward (FSDP1 ShardingStrategy.FULL_SHARD, FSDP2 "
            "fully_shard(reshard_after_forward=True))", ("--fsdp full",),
            "every unit is all-gathered again for backward: about 1.5x the parameter traffic",
            lambda i: i.with_changes(fsdp="full"))
    if train and inp.world_size > 1 and not inp.fsdp and inp.zero_stage < 3:
        stage = inp.zero_stage + 1 if inp.zero_stage else 2
        add("zero", 3, f"use DeepSpeed ZeRO stage {stage}", (f"--zero {stage}",),
            "more communication per step (ZeRO-3 about 1.5x the traffic of DDP)",
            lambda i: i.with_changes(zero_stage=stage), ("fsdp", "zero3"))
        if stage < 3:
            add("zero3", 4, "use DeepSpeed ZeRO stage 3", ("--zero 3",),
                "parameters gathered every layer: about 1.5x the traffic of DDP",
                lambda i: i.with_changes(zero_stage=3), ("fsdp", "zero"))
        if inp.zero_stage == 0:
            add("fsdp", 3, "use FSDP full sharding", ("--fsdp full",),
                "about 1.5x the traffic of DDP; needs wrapping the model in FSDP",
                lambda i: i.with_changes(fsdp="full"), ("zero", "zero3"))
    if train and not inp.offload_optimizer and not inp.fsdp and not inp.quant:
        def off(i: EstimateInput) -> Optional[EstimateInput]:
            return i.with_changes(offload_optimizer="cpu", zero_stage=max(i.zero_stage, 2) if
                                  i.zero_stage or i.world_size == 1 else i.zero_stage)

        add("offload_opt", 5, "offload the optimizer to CPU (DeepSpeed ZeRO-Offload)",
            ("--offload-optimizer cpu",) + (("--zero 2",) if not inp.zero_stage else ()),
            "optimizer step on the CPU: often 1.5-3x slower steps; needs about 16 bytes of "
            "host RAM per parameter", off)
    if train and not inp.offload_params and not inp.fsdp and not inp.quant:
        # only what the job does not do already (ZeRO-3, an offloaded optimizer)
        flags = ((() if inp.zero_stage >= 3 else ("--zero 3",)) + ("--offload-params cpu",)
                 + (() if inp.offload_optimizer else ("--offload-optimizer cpu",)))
        what = ("offload parameters to CPU (ZeRO-3 Infinity)" if inp.offload_optimizer
                else "offload parameters and optimizer to CPU (ZeRO-3 Infinity)")
        add("offload_params", 6, what, flags,
            "parameters stream over PCIe every step: several times slower",
            lambda i: i.with_changes(zero_stage=3, offload_params="cpu", offload_optimizer="cpu"),
            ("zero", "zero3", "fsdp", "offload_opt"))
    if train and not inp.lora:
        add("lora", 4, "train LoRA adapters (r=16) instead of all weights", ("--lora-r 16",),
            "trains about 0.1-1% of the weights; quality can trail a full fine-tune",
            lambda i: i.with_changes(lora_r=16), ("qlora",))
    if train and not inp.quant:
        qlora = ("quantize the frozen base to 4-bit NF4 (QLoRA)" if inp.lora
                 else "QLoRA: 4-bit NF4 base with LoRA adapters (r=16)")
        add("qlora", 5, qlora, ("--quant 4bit",) + (() if inp.lora else ("--lora-r 16",)), "4-bit base: small quality loss; dequantizing makes steps slower",
            lambda i: i.with_changes(quant="4bit", lora_r=i.lora_r or 16, kbit_prepared=True,
                                     quant_type="nf4"), ("lora",))
    if not train and not inp.quant:
        add("quant8", 3, "load the weights in 8 bits (load_in_8bit)", ("--quant 8bit",),
            "small quality loss; slower matmuls", lambda i: i.with_changes(quant="8bit"), ("quant4",))
        add("quant4", 4, "load the weights in 4 bits (NF4)", ("--quant 4bit",),
            "some quality loss; slower matmuls", lambda i: i.with_changes(quant="4bit"), ("quant8",))
    if inp.mode == "generate" and inp.num_beams > 1:
        add("beams", 3, "fewer beams (greedy or sampling)", ("--num-beams 1",),
            "different (often slightly worse) outputs", lambda i: i.with_changes(num_beams=1))
    more = inp.world_size * 2
    if train:
        def more_gpus(i: EstimateInput) -> Optional[EstimateInput]:
            if i.zero_stage == 0 and not i.fsdp:
                return i.with_changes(world_size=more, zero_stage=3)
            return i.with_changes(world_size=more)

        sharded = inp.zero_stage or inp.fsdp
        add("more_gpus", 7, f"use {more} GPUs" + ("" if sharded else " with ZeRO-3"),
            (f"--world-size {more}",) + (() if sharded else ("--zero 3",)),
            f"{more} GPUs to rent instead of {inp.world_size}", more_gpus)
    else:
        add("more_gpus", 7, f"split the model over {more} GPUs (device_map / tensor parallel)",
            (f"--world-size {more}",), f"{more} GPUs to rent instead of {inp.world_size}",
            lambda i: i.with_changes(world_size=more))
    return out


def _has_lm_logits(inp: EstimateInput) -> bool:
    """Whether the job computes a loss over a vocabulary (an LM or masked-LM head)."""
    arch = inp.arch
    if arch is None:
        return bool(inp.params)   # a guessed Llama shape
    if getattr(arch, "family", "") in ("vision", "cnn") or not getattr(arch, "vocab_size", 0):
        return False
    return str((getattr(arch, "extra", None) or {}).get("task_head", "lm")) == "lm"


#: a change that saves less than this share of the peak is not worth a line
MIN_SAVING = 0.01


def _peak(inp: EstimateInput) -> Optional[Estimate]:
    est = estimate(inp)
    return est if est.ok else None


def remediate(inp: EstimateInput, target: Any, *, usable_fraction: float = 1.0,
              max_changes: int = 3) -> list[Remediation]:
    """Single changes (largest saving first), then the cheapest combination that fits.

    The combination search walks combinations of up to ``max_changes`` candidates in
    order of rising total cost (then fewer changes, then lower peak) and stops at the
    first that fits; it is listed last, with ``"combination"`` in its description.
    """
    base = _peak(inp)
    if base is None or target is None:
        return []
    assert base.peak_bytes is not None
    cands = _candidates(inp)
    singles: list[Remediation] = []
    for cand in cands:
        single = cand.apply(inp)
        est = _peak(single) if single is not None else None
        if est is None or est.peak_bytes is None:
            continue
        saved = base.peak_bytes - est.peak_bytes
        if saved <= 0 or saved < MIN_SAVING * base.peak_bytes:
            continue
        v = verdict(est, target, usable_fraction)
        singles.append(Remediation([cand.change], cand.change, cand.cost, saved, est.peak_bytes,
                                   v == "fits", v, cand.rank, list(cand.flags)))
    singles.sort(key=lambda r: (-r.saved_bytes, r.rank))
    if verdict(base, target, usable_fraction) == "fits":
        # it fits already: only the cheap changes are worth a line
        return [r for r in singles if r.rank <= 3]
    useful = [c for c in cands if any(r.changes == [c.change] for r in singles)]
    combos: list[tuple[int, int, tuple[_Candidate, ...]]] = []
    for k in range(1, max_changes + 1):
        for combo in itertools.combinations(useful, k):
            keys = {c.key for c in combo}
            if any(set(c.conflicts) & keys for c in combo):
                continue
            combos.append((sum(c.rank for c in combo), k, combo))
    combos.sort(key=lambda t: (t[0], t[1]))
    for _, k, combo in combos:
        new_inp: Optional[EstimateInput] = inp
        for cand in combo:
            new_inp = cand.apply(new_inp) if new_inp is not None else None
        if new_inp is None:
            continue
        est = _peak(new_inp)
        if est is None or est.peak_bytes is None:
            continue
        v = verdict(est, target, usable_fraction)
        if v == "fits":
            if k == 1:
                break  # already listed as a single change that fits
            changes = [c.change for c in combo]
            singles.append(Remediation(
                changes, "smallest combination that fits: " + " + ".join(changes),
                "; ".join(c.cost for c in combo), base.peak_bytes - est.peak_bytes,
                est.peak_bytes, True, v, sum(c.rank for c in combo),
                [f for c in combo for f in c.flags]))
            break
    return singles


def cheapest_targets(inp: EstimateInput, *, usable_fraction: float = 1.0
                     ) -> tuple[Optional[Any], Optional[Any]]:
    """The smallest catalog GPU and the cheapest cloud instance that hold the job as
    configured (an instance's GPU count becomes the world size when the job shards
    over GPUs). ``(None, None)`` when the catalog is missing or nothing fits."""
    try:
        from preflight import hardware
        gpus = list(hardware.gpus())
        instances = list(hardware.instances())
    except (ImportError, AttributeError):
        return None, None
    est = _peak(inp)
    if est is None:
        return None, None
    best_gpu = None
    for gpu in sorted(gpus, key=lambda g: (g.memory_bytes, g.name)):
        if verdict(est, gpu, usable_fraction) == "fits":
            best_gpu = gpu
            break
    best_inst = None
    priced = [i for i in instances if getattr(i, "hourly_usd", None) is not None]
    for inst in sorted(priced, key=lambda i: (i.hourly_usd, i.name)):
        # as configured: the job keeps its world size, so an instance needs at least that
        # many GPUs, each holding one rank's peak
        if inst.count < inp.world_size:
            continue
        if verdict(est, inst, usable_fraction) == "fits":
            best_inst = inst
            break
    return best_gpu, best_inst

