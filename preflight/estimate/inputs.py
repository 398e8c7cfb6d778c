"""What the estimator needs to know about a job, and how it is read from a TrainingPlan.

:class:`EstimateInput` is the estimator's whole input: the cost model never looks at the
plan itself, so ``bench/estimator_accuracy.py``, the gate and ``preflight fit`` can build
one directly. :func:`input_from_plan` maps plan fields (and command-line overrides, which
win) onto it and records, for every field, where the value came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional

MODES = ("train", "infer", "generate")
PRECISIONS = ("fp32", "amp-fp16", "amp-bf16", "fp16", "bf16")
OPTIMIZERS = ("adamw", "adamw-fused", "adamw-8bit", "adamw-4bit", "paged-adamw-8bit", "paged-adamw",
              "adafactor", "sgd", "sgd-momentum", "lion", "lion-8bit")
ATTENTIONS = ("eager", "sdpa", "flash")
FSDP_MODES = ("full", "hybrid", "grad-op")
OFFLOAD = ("cpu", "nvme")
LOSSES = ("standard", "chunked", "fused", "logits")   # logits: a reduction of the logits, no cross-entropy
QUANTS = ("4bit", "8bit")
LOAD_PLACEMENTS = ("gpu", "host", "sharded")
MODEL_IMPLS = ("transformers", "litgpt", "torchtune")
AMP_IMPLS = ("torch", "apex")   # apex: NVIDIA apex AMP O1's patched functions (apex_amp.py)


@dataclass
class EstimateInput:
    """One job as the cost model sees it (per-GPU memory is estimated from this alone).

    ``arch`` is a :class:`preflight.estimate.arch.Architecture` (or anything with the same
    attributes); ``params`` overrides its parameter count. ``sources`` maps an input
    field name to where its value came from (``"cli --seq-len"``, ``"ds.json:3
    [train_micro_batch_size_per_gpu]"``, ``"default"``, ``"assumed"``).
    """

    arch: Any = None
    params: Optional[int] = None
    mode: str = "train"
    precision: str = "amp-bf16"
    optimizer: str = "adamw"
    micro_batch: int = 1
    seq_len: Optional[int] = None
    image_size: Optional[int] = None
    grad_ckpt: bool = False
    attention: str = "sdpa"
    zero_stage: int = 0
    fsdp: Optional[str] = None
    offload_optimizer: Optional[str] = None
    offload_params: Optional[str] = None
    world_size: int = 1
    lora_r: Optional[int] = None
    quant: Optional[str] = None
    max_new_tokens: int = 0
    num_beams: int = 1
    ema: bool = False                                 # diffusion: EMA copy of the trained weights (--use_ema)
    cache_text_embeddings: bool = False               # diffusion: prompts encoded once, text encoders freed
    cache_latents: bool = False                       # diffusion: latents cached, no VAE on the GPU in the step
    textual_inversion: bool = False                   # diffusion: only the text encoder's token embedding trains
    vae_dtype: Optional[str] = None                   # diffusion: the VAE's dtype, fp32 | 16bit (None: the weight dtype)
    sources: dict[str, str] = field(default_factory=dict)
    # Beyond the shared contract (all optional, with the frameworks' defaults):
    grad_accum: int = 1
    lora_targets: Optional[tuple[str, ...]] = None   # None: PEFT's default for the model type
    quant_type: str = "nf4"                           # 4-bit: nf4 | fp4
    double_quant: bool = False                        # bnb_4bit_use_double_quant
    kbit_prepared: Optional[bool] = None              # prepare_model_for_kbit_training (None: yes for QLoRA)
    dropout: Optional[float] = None                   # None: the architecture's own (0 for Llama-like)
    devices_per_node: Optional[int] = None            # FSDP hybrid shards within a node
    reduce_bucket_size: Optional[int] = None          # DeepSpeed, elements
    allgather_bucket_size: Optional[int] = None       # DeepSpeed, elements
    prefetch_bucket_size: Optional[int] = None        # DeepSpeed stage3_prefetch_bucket_size, elements
    max_live_parameters: Optional[int] = None         # DeepSpeed stage3_max_live_parameters, elements
    ddp_bucket_view: bool = False                     # DDP(gradient_as_bucket_view=...)
    # DDP wraps the model on ONE process (``torchrun``/``torch.distributed.launch --nproc_per_node 1``,
    # ColossalAI's TorchDDPPlugin): its Reducer's gradient buckets exist at world size 1 too (est94)
    ddp_one_process: bool = False
    weights_bits: Optional[int] = None                # 16: weights loaded in bf16/fp16 (under autocast too)
    foreach: bool = True                              # torch optimizers' foreach path (CUDA default)
    # a hand-written optimizer whose step loops over the parameters with out-of-place arithmetic: the
    # parameter-sized tensors alive at once at its peak beyond the kept states (est96: cs336-basics'
    # AdamW holds 5); None: torch's for-loop AdamW (2: sqrt(exp_avg_sq) and the denominator)
    optimizer_loop_temps: Optional[int] = None
    target_len: Optional[int] = None                  # encoder-decoder: decoder tokens (None: seq_len)
    lora_dropout: float = 0.0                         # LoraConfig(lora_dropout=0.0) default
    device: str = "cuda"                              # "cpu": the calibration reference's kernels
    loss: str = "standard"                            # LM loss: standard | chunked | fused
    zero_grad_keeps: bool = False                     # zero_grad() keeps zeroed gradients (set_to_none=False)
    torch_version: Optional[str] = None               # "2.3.1": CUDA context and zero_grad defaults by version
    # False: the plan read torch_version from a lower bound (``torch>=2.0``), which pip resolves to
    # the newest release, so a default changed since (FSDP's rate limiter) is taken as today's;
    # None: stated by the caller (a flag, a calibration row)
    torch_version_pinned: Optional[bool] = None
    gpu_bf16: Optional[bool] = None                   # target GPU runs bf16 kernels (Ampere+); None: unknown
    gpu_hopper: Optional[bool] = None                 # target is NVIDIA Hopper or later (32 MiB cuBLAS workspaces)
    gpu_blackwell: Optional[bool] = None              # target is NVIDIA Blackwell (32 MiB only from torch 2.11)
    gpu_link: Optional[str] = None                    # nvlink | nvlink-volta | pcie | other (nccl.link); None: unknown
    gpu_threads: Optional[int] = None                 # SMs x resident threads per SM (gpu_facts.resident_threads); None: unknown
    optimizer_in_backward: bool = False               # step each parameter as its gradient is ready (torchtune)
    activation_offload: bool = False                  # saved activations moved to host memory (torchtune)
    # torchao CPUOffloadOptimizer(offload_gradients=True): each gradient copied to host memory
    # and dropped on the GPU as soon as it is accumulated (with offload_optimizer)
    offload_gradients: bool = False
    # FSDP gradient accumulation: no_sync()/Fabric no_backward_sync keeps the accumulated
    # gradients unsharded between syncs (None: unknown, the interval covers both)
    fsdp_unsharded_accum: Optional[bool] = None
    # FSDP1 use_orig_params=True with frozen and trainable weights in one unit (LoRA inside a
    # block wrapped whole): gradients exist for the frozen weights too (None: unknown)
    fsdp_frozen_grads: Optional[bool] = None
    # FSDP1's rate limiter (``limit_all_gathers``): at most two all-gathers in flight. None:
    # the torch release's default, False before 2.1 (see terms.fsdp_all_gathers_unlimited)
    fsdp_limit_all_gathers: Optional[bool] = None
    # which FSDP: 1 ``FullyShardedDataParallel``, 2 ``fully_shard`` (FSDP2, whose CPU offload
    # moves each gradient shard to the host at once); None: unknown, FSDP1 except torchtune's
    # recipes (``training.shard_model`` calls ``fully_shard``; terms.fsdp_offload_grad_shards)
    fsdp_version: Optional[int] = None
    # FSDP's auto-wrap unit: "block" (one unit per decoder block, the root keeping embeddings,
    # LM head and final norm), "module" (a policy true for every module: each module with
    # parameters its own unit, fsdp_wrap.py); None: block
    fsdp_wrap: Optional[str] = None
    # FSDP prepared by Accelerate (its config's distributed_type FSDP, Accelerator(fsdp_plugin=...)
    # or the HF Trainer's fsdp arguments): under mixed precision Accelerate upcasts 16-bit
    # parameters to fp32 (terms_sharded.accelerate_fsdp_upcast); None: not known
    fsdp_by_accelerate: Optional[bool] = None
    max_reuse_distance: Optional[int] = None          # DeepSpeed stage3_max_reuse_distance, elements
    contiguous_gradients: bool = True                 # DeepSpeed zero_optimization.contiguous_gradients
    overlap_comm: Optional[bool] = None               # DeepSpeed zero_optimization.overlap_comm (None: its default, on for stage 3 only)
    # where each rank materialises the weights before ZeRO-3/FSDP shards them: "gpu" (the
    # whole model on every GPU first: ZeRO-3 without zero.Init, a device_map or .to("cuda")
    # before wrapping), "host" (CPU, moved unit by unit), "sharded" (zero.Init, meta-device
    # init, FSDP cpu_ram_efficient_loading); None: unknown (estimated as host)
    load_placement: Optional[str] = None
    compiled: Optional[bool] = None                   # torch.compile on the model (plan compile.enabled)
    # the LM loss runs inside a compiled region (the compiled module returns the loss, or the
    # loss function is compiled too: torchtune's compile_loss); False: only the model is
    # compiled and the loss runs eagerly on the logits it returns; None: unknown (estimated
    # eagerly, the larger; the interval covers the compiled loss). See terms.loss_compiled
    compiled_loss: Optional[bool] = None
    # the plain MLP's activation (transformers' ACT2FN name) when the job sets it apart from the
    # config (plan model.activation_function); None: the config's own
    mlp_act: Optional[str] = None
    model_impl: str = "transformers"                  # whose modeling code runs: transformers | litgpt | torchtune
    # ops the model writes in Python instead of torch's kernel: "softmax" (attention's), "silu" (python_ops.py)
    python_ops: tuple[str, ...] = ()
    # who casts under amp-fp16: "torch" (autocast) or "apex" (apex AMP O1 patches torch's functions,
    # plan precision.amp_impl); gelu_at_call: the model's GELU looks torch.nn.functional.gelu up when
    # it runs (nn.GELU, F.gelu in forward; plan model.gelu_at_call), None: transformers' binds it at
    # construction, litgpt calls it (apex_amp.py)
    amp_impl: str = "torch"
    gelu_at_call: Optional[bool] = None
    # layer_scale: each block multiplies its two branches by trained vectors (BEiT/SimMIM gamma_1/2,
    # timm LayerScale); None: the architecture's (DINOv2) (layer_scale.py)
    layer_scale: Optional[bool] = None
    # "4.41.2": generate's KV cache (legacy tuples before 4.42) and the LM loss's logits copies; None: unknown
    transformers_version: Optional[str] = None
    # "0.2.1": torchtune's release (model_impl torchtune): before 0.3 its recipes keep the fp32
    # logits at loop level and compile the model only (torchtune_loop.py); None: unknown (current)
    torchtune_version: Optional[str] = None
    # the training loop keeps the model's output object across steps (``outputs = model(...)``
    # at loop level): previous step's logits and returned cache live through the next forward
    keeps_outputs: bool = False
    # autocast runs around the forward (plan precision.autocast). None: what ``precision`` says
    # (``amp-*`` is autocast); False with ``amp-*`` under FSDP: only MixedPrecision(param_dtype)
    # casts the weights, so the script's loss on 16-bit logits stays 16-bit (terms.autocast_on)
    autocast: Optional[bool] = None
    # the model's matmuls take each weight as a view (x @ w.T): autocast caches no cast (autocast_cache.py)
    weight_views: Optional[bool] = None
    # the decoder returns its KV cache in a training forward (transformers' config.use_cache).
    # None: the config's value, switched off by gradient checkpointing (transformers' own does
    # that); True with grad_ckpt: checkpointing by torch's wrapper (FSDP/accelerate
    # activation_checkpointing, apply_activation_checkpointing), which leaves the cache on
    use_cache: Optional[bool] = None
    # how batches are padded: "max_length" (every batch the same length), "dynamic" (to the
    # longest sample of the batch: lengths vary between steps), "packed"; None: unknown
    padding: Optional[str] = None
    # the datasets the job trains on (plan data.datasets) and the longest sample in tokens when
    # stated (plan data.longest_sample): with dynamic padding the step is sized at the longest
    # sample, not the cap (sample_lengths.py); None: unknown (the cap)
    datasets: Optional[tuple[str, ...]] = None
    longest_sample: Optional[int] = None
    pad_multiple: Optional[int] = None                # the collator's pad_to_multiple_of (plan data.pad_to_multiple_of)
    # est67: a sample over the cap is "truncate"d (cut to it) or "delete"d (dropped); None: unknown
    truncation: Optional[str] = None
    # the sampler puts the longest batch first and sorts each megabatch longest first
    # (TrainingArguments(group_by_length=True), plan data.group_by_length); None: unknown
    group_by_length: Optional[bool] = None
    # PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (plan memory.expandable_segments): the
    # allocator grows one mapped range instead of taking a segment per size; None: unknown
    expandable_segments: Optional[bool] = None
    # the script computes the LM loss itself on the logits the model returns (``logits[...,
    # :-1, :].contiguous()`` then CrossEntropyLoss, no labels passed to the model): no fp32
    # upcast, whatever the transformers version
    loss_in_logits_dtype: bool = False
    # Liger's kernels replace the model's RMSNorm and SwiGLU (``use_liger_kernel``,
    # ``apply_liger_kernel_to_*``, ``AutoLigerKernelForCausalLM``; plan model.liger_kernels):
    # see activations.transformer_layer. None/False: the model's own modules
    liger_kernels: Optional[bool] = None
    # with grad_ckpt: the checkpoint wrapper is applied to each layer's attention, MLP and norms
    # apart rather than to the layer (NeMo AutoModel's FSDP2 parallelizer): ckpt_submodules.py
    ckpt_submodules: bool = False
    # a speech model's conv feature encoder is frozen (model.freeze_feature_encoder(); plan
    # model.feature_encoder_frozen): see audio_frontend.py. None/False: it trains
    feature_encoder_frozen: Optional[bool] = None
    # the model's attention is torch.nn.MultiheadAttention (torchvision's ViT builders; plan
    # model.torch_mha): see terms.mha_output_copied
    torch_mha: bool = False
    # est63: q, k and v come from one packed linear outside nn.MultiheadAttention (flash-attn's
    # FlashMHA ``Wqkv``): one saved input under autocast, as torch_mha's in_proj. Rows and
    # EstimateInput only (no plan field reads it yet)
    packed_qkv: bool = False
    # est63: a position table hand-written code keeps that the nearest HF layout lacks: "rope" (one fp32
    # cos/sin pair of max_position_embeddings x head_dim as buffers), "rope_local_global" (est66: two such
    # pairs, Gemma 3's local and global bases) or "learned" (an absolute position embedding,
    # inference/generation only): position_tables.py. Rows and EstimateInput only
    position_table: Optional[str] = None
    # the loop calls zero_grad() after the forward, before backward (plan
    # optimizer.zero_grad_after_forward): see terms.grads_through_forward
    zero_grad_after_forward: bool = False
    # "0.14.4": the DeepSpeed release the job runs (plan framework.deepspeed_version); ZeRO-1/2
    # with optimizer offload copies the fp32 partition to the GPU from 0.14.1 to before 0.17.0
    # (terms.zero12_offload_step_copy); None: unknown (the latest)
    deepspeed_version: Optional[str] = None
    # "0.39.1": the bitsandbytes release an 8-bit base runs; LLM.int8's matmul keeps its input
    # itself for backward from 0.39 to 0.44 (int8_matmul.kept_input_bytes); None: unknown (not
    # charged)
    bitsandbytes_version: Optional[str] = None
    # the vocabulary tables train beside the LoRA adapters (plan peft.trained_embeddings): "copy"
    # (PEFT modules_to_save) or "resized" (resize_token_embeddings after the adapter, before
    # transformers 4.35) or "embedding" (the input embedding alone, in place: LongLoRA);
    # None: frozen (trained_embeddings.py)
    trained_embeddings: Optional[str] = None
    # a full fine-tune whose input embedding and LM head do not train (requires_grad False):
    # no gradients, optimizer states or tied-gradient transient for them (frozen_tables.py)
    frozen_embeddings: bool = False
    # ZeRO steps the client's optimizer (the HF Trainer's ``optim`` or one the code builds; no
    # ``optimizer`` block in the DeepSpeed config) on flat fp32 partitions: its step temporaries
    # are partition-sized (zero_client_optim). False: DeepSpeed's own (in place); None: unknown
    zero_client_optimizer: Optional[bool] = None
    # frozen full copies of the model held beside the trained one (frozen_models.py): a DPO/KTO/
    # GRPO reference model (1), PPO's reference and reward model (2); a LoRA run whose reference
    # is the base with the adapter disabled (TRL with a peft model) holds none. Sharded like the
    # policy under ZeRO-3/FSDP, a replica otherwise. frozen_bits: 32 | 16 | 8 | 4 (None: built
    # like the policy, 16 bits under DeepSpeed); frozen_offload: their weights in host memory
    frozen_models: int = 0
    frozen_bits: Optional[int] = None
    frozen_offload: bool = False

    @property
    def torch_before(self) -> Optional[tuple[int, int]]:
        """(major, minor) of ``torch_version`` when known, else None."""
        m = re.match(r"\s*(\d+)\.(\d+)", str(self.torch_version or ""))
        return (int(m.group(1)), int(m.group(2))) if m else None

    @property
    def legacy_kv_cache(self) -> Optional[bool]:
        """Whether transformers' ``generate`` passes the KV cache as legacy tuples (before
        4.42, which made ``DynamicCache()`` the default, and later for model types without
        ``_supports_cache_class``, GPT-2 before 4.52: ``generate_loop.legacy_cache``), so that
        the previous step's whole cache stays referenced while the model builds the next one;
        None when the version is unknown. Only transformers' own modeling code (``model_impl``)
        has this cache."""
        from preflight.estimate.generate_loop import legacy_cache

        return legacy_cache(self)

    def with_changes(self, **changes: Any) -> EstimateInput:
        """A copy with some fields changed (sources of changed fields become ``"remedy"``)."""
        sources = dict(self.sources)
        for name in changes:
            sources[name] = "remedy"
        return replace(self, sources=sources, **changes)

    @property
    def lora(self) -> bool:
        return self.lora_r is not None and self.lora_r > 0

    @property
    def sharding(self) -> str:
        """The plan's spelling (:data:`preflight.plan.SHARDING_VALUES`): ``none`` | ``ddp`` |
        ``zero1..3`` | ``fsdp_full`` | ``fsdp_hybrid`` | ``fsdp_grad_op``."""
        from preflight.plan import sharding_value

        return sharding_value(self.zero_stage or 0, self.fsdp, self.world_size)


class InputError(ValueError):
    """An override or plan value the estimator cannot use (one clear message)."""


# --------------------------------------------------------------------------- parsing

_SUFFIX = {"k": 10 ** 3, "m": 10 ** 6, "b": 10 ** 9, "g": 10 ** 9, "t": 10 ** 12}


def parse_count(text: str) -> int:
    """``7B`` -> 7e9, ``1.5b``, ``350M``, ``8030261248`` -> ints; InputError otherwise."""
    raw = str(text).strip().lower().replace("_", "").replace(",", "")
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kmbgt]?)", raw)
    if not m or float(m.group(1)) <= 0:
        raise InputError(f"cannot read a parameter count from {text!r} (try 7B, 350M or 1.5e9)")
    return round(float(m.group(1)) * _SUFFIX.get(m.group(2), 1))


_OPTIMIZER_NAMES = {
    # transformers OptimizerNames and torch/bnb class names, lower-cased, '-' and '_' removed
    "adamw": "adamw", "adam": "adamw", "adamwtorch": "adamw", "adamwhf": "adamw",
    "adamwtorchfused": "adamw-fused", "adamwfused": "adamw-fused", "fusedadam": "adamw-fused",
    "adamwapexfused": "adamw-fused", "deepspeedcpuadam": "adamw", "cpuadam": "adamw",
    "adamw8bit": "adamw-8bit", "adamwbnb8bit": "adamw-8bit", "adam8bit": "adamw-8bit",
    "adamwtorch8bit": "adamw-8bit", "bnbadamw8bit": "adamw-8bit",
    "adamw4bit": "adamw-4bit", "adam4bit": "adamw-4bit", "adamwtorch4bit": "adamw-4bit",   # torchao (est77)
    "pagedadamw8bit": "paged-adamw-8bit", "pagedadam8bit": "paged-adamw-8bit",
    "pagedadamw": "paged-adamw", "pagedadamw32bit": "paged-adamw", "pagedadam": "paged-adamw",
    "adafactor": "adafactor",
    "sgd": "sgd", "sgdmomentum": "sgd-momentum",
    "lion": "lion", "lion32bit": "lion", "pagedlion32bit": "lion",
    "lion8bit": "lion-8bit", "pagedlion8bit": "lion-8bit",
}


def normalise_optimizer(name: str) -> Optional[str]:
    key = re.sub(r"[^a-z0-9]", "", name.lower())
    return _OPTIMIZER_NAMES.get(key)


_PRECISION_FROM_PLAN = {"fp32": "fp32", "amp_fp16": "amp-fp16", "amp_bf16": "amp-bf16",
                        "fp16": "fp16", "bf16": "bf16", "fp8": "amp-bf16"}
_ATTN_FROM_PLAN = {"eager": "eager", "sdpa": "sdpa", "flash_attention_2": "flash",
                   "flash_attention_3": "flash", "flex_attention": "sdpa"}
_MODE_FROM_PLAN = {"train": "train", "finetune": "train", "lora": "train", "qlora": "train",
                   "inference": "infer", "generation": "generate"}


# --------------------------------------------------------------------------- from a plan


def _where(fact: Any) -> str:
    src = fact.source
    where = src.location() if src.path is not None else src.kind
    if src.key:
        where = f"{where} [{src.key}]"
    if src.kind in ("default", "derived", "cli", "env", "hub", "user") and src.path is not None:
        where = f"{src.kind} {where}"
    return where


def input_from_plan(plan: Any, overrides: Optional[Mapping[str, Any]] = None,
                    *, arch: Any = None) -> EstimateInput:
    """The estimator's input from a TrainingPlan, then ``overrides`` (EstimateInput field
    names, e.g. ``{"seq_len": 4096}``; a None value means "not given"). ``arch`` is the
    resolved architecture (see :func:`preflight.estimate.resolve_architecture`).

    Raises :class:`InputError` for an override value that cannot be used.
    """
    overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
    inp = EstimateInput(arch=arch)
    src: dict[str, str] = {}

    def take(field_name: str, plan_field: str, convert: Any = None) -> None:
        if plan is None:
            return
        fact = plan.resolve(plan_field)
        if fact is None:
            return
        if arch is not None and getattr(fact, "adapter", None) == "model_ref_count":
            return  # the count of the architecture resolved here (preflight.adapters.model_ref_count)
        value = convert(fact.value) if convert else fact.value
        if value is None:
            return
        setattr(inp, field_name, value)
        src[field_name] = _where(fact)

    task = plan.value("task.mode") if plan is not None else None
    take("mode", "task.mode", _MODE_FROM_PLAN.get)
    take("precision", "precision.mode", _PRECISION_FROM_PLAN.get)
    take("optimizer", "optimizer.name", normalise_optimizer)
    take("micro_batch", "batch.micro")
    take("grad_accum", "batch.grad_accum")
    take("seq_len", "data.seq_len")
    take("image_size", "data.image_size")
    take("grad_ckpt", "memory.gradient_checkpointing")
    take("attention", "model.attn_implementation", _ATTN_FROM_PLAN.get)
    take("world_size", "dist.world_size")
    take("devices_per_node", "dist.devices_per_node")
    take("max_new_tokens", "generation.max_new_tokens")
    take("num_beams", "generation.num_beams")
    take("params", "model.num_parameters")
    take("offload_optimizer", "dist.offload_optimizer", lambda v: None if v == "none" else v)
    take("offload_params", "dist.offload_params", lambda v: None if v == "none" else v)
    take("quant", "precision.weights_bits", lambda v: {4: "4bit", 8: "8bit"}.get(v))
    if plan is not None:
        bits = plan.value("precision.weights_bits")
        if bits == 16:
            inp.weights_bits = 16
            src["weights_bits"] = _where(plan.resolve("precision.weights_bits"))
        if bits == 16 and "precision" not in src:
            # weights loaded in 16 bits with no autocast said: pure 16-bit
            inp.precision = "bf16"
            src["precision"] = _where(plan.resolve("precision.weights_bits"))
        sharding = plan.resolve("dist.sharding")
        if sharding is not None:
            value = sharding.value
            if value.startswith("zero"):
                inp.zero_stage = int(value[4:])
                src["zero_stage"] = _where(sharding)
            elif value.startswith("fsdp_"):
                # (imported under another name: this module's ``FSDP_MODES`` is the estimator's
                # own tuple, which preflight.estimate.input_checks checks against)
                from preflight.plan import FSDP_MODES as PLAN_FSDP_MODES

                inp.fsdp = PLAN_FSDP_MODES[value]
                src["fsdp"] = _where(sharding)
                if getattr(sharding, "adapter", None) in ("accelerate", "transformers"):
                    # Accelerate's FSDP (the Trainer's too) runs its own prepare_model
                    inp.fsdp_by_accelerate = True
                    src["fsdp_by_accelerate"] = _where(sharding)
        if inp.zero_stage and "zero_client_optimizer" not in src:
            from preflight.estimate.zero_client_optim import client_optimizer_from_names

            names = plan.facts("optimizer.name")
            client = client_optimizer_from_names([(f.value, getattr(f, "adapter", None)) for f in names])
            if client is not None:
                inp.zero_client_optimizer = client
                src["zero_client_optimizer"] = _where(plan.resolve("optimizer.name") or names[0])
        if plan.value("peft.method") in ("lora", "dora") or task in ("lora", "qlora"):
            fact = plan.resolve("peft.rank")
            inp.lora_r = fact.value if fact is not None else 8
            src["lora_r"] = _where(fact) if fact is not None else "default (peft LoraConfig r=8)"
        targets = plan.value("peft.target_modules")
        if targets:
            inp.lora_targets = tuple(targets)
            src["lora_targets"] = _where(plan.resolve("peft.target_modules"))
        if task == "qlora" and inp.quant is None:
            inp.quant = "4bit"
            src["quant"] = _where(plan.resolve("task.mode"))
        from preflight.estimate.plan_extra import extra_plan_fields

        extra_plan_fields(plan, inp, src)
    for name, value in overrides.items():
        if not hasattr(inp, name):
            raise InputError(f"unknown estimate input {name!r}")
        setattr(inp, name, value)
        src[name] = "cli"
    from preflight.estimate.input_checks import check_values

    check_values(inp)
    if inp.quant == "4bit" and inp.lora and inp.kbit_prepared is None:
        # prepare_model_for_kbit_training only when the job calls it (or TRL does): the
        # plan says so (peft.kbit_prepared); without a plan fact, bitsandbytes' own layout
        inp.kbit_prepared = False
        src.setdefault("kbit_prepared", "default (no prepare_model_for_kbit_training found)")
    if inp.quant and inp.mode == "train" and "grad_ckpt" not in src and inp.kbit_prepared:
        # prepare_model_for_kbit_training(use_gradient_checkpointing=True) is the default
        inp.grad_ckpt = True
        src["grad_ckpt"] = "default (peft prepare_model_for_kbit_training)"
    for name in ("mode", "precision", "optimizer", "micro_batch", "attention", "world_size"):
        src.setdefault(name, "default")
    if "micro_batch" not in overrides and (plan is None or plan.resolve("batch.micro") is None):
        src["micro_batch"] = "assumed (no batch size found)"
    inp.sources = src
    return inp


def from_calibration_case(case: Mapping[str, Any], hf_config: Mapping[str, Any],
                          model_class: Optional[str] = None) -> EstimateInput:
    """The EstimateInput of one case of ``calibration/matrix.py`` (its ``describe()`` dict,
    as stored under ``"case"`` in ``calibration/data/*.json``), the config dict and the
    model class recorded beside it. Used by the calibration tests and ``bench/estimator_accuracy.py``."""
    from preflight.estimate.arch import from_hf_config

    config = dict(hf_config)
    # the case's own config arguments (e.g. num_labels) win over the recorded dict, which
    # leaves some of them out
    config.update({k: v for k, v in (case.get("hf_config") or {}).items() if v is not None})
    config.setdefault("model_type", case["model_type"])
    if not config.get("architectures"):
        # the task head counts (e.g. an image classifier); its class names the task
        head = model_class or {"image-classification": "ForImageClassification",
                               "masked-lm": "ForMaskedLM", "causal-lm": "ForCausalLM",
                               "seq2seq": "ForConditionalGeneration"}.get(str(case.get("task")))
        if head:
            config["architectures"] = [head]
    arch = from_hf_config(config, name=str(case["name"]))
    targets = case.get("lora_targets")
    return EstimateInput(
        arch=arch, mode="train", precision=str(case["precision"]),
        optimizer=str(case["optimizer"]), foreach=case.get("optimizer_impl", "foreach") == "foreach",
        micro_batch=int(case["batch"]), seq_len=case.get("seq_len"), image_size=case.get("image_size"),
        target_len=case.get("target_len"), grad_ckpt=bool(case.get("grad_ckpt")),
        attention=str(case.get("attention") or "sdpa"), lora_r=case.get("lora_r"),
        lora_targets=tuple(targets) if targets else None,
        lora_dropout=float(case.get("lora_dropout") or 0.0),
        device="cpu", sources={"micro_batch": "calibration case"})
