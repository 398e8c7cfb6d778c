"""The plan's fields: each field's name, type, allowed values and meaning (the table the plan, its JSON schema, the adapters and the estimator share), and the sharding spellings."""

from __future__ import annotations

from typing import Any, Optional

from preflight._record import dataclass

# Value types of the field table, with their JSON Schema spelling.
_JSON_TYPES = {"str": "string", "int": "integer", "bool": "boolean", "float": "number"}


@dataclass(frozen=True)
class FieldSpec:
    """One row of the plan's schema."""

    name: str
    type: str  # "str", "int", "bool", "float" or "list[str]"
    description: str
    enum: Optional[tuple[Any, ...]] = None
    minimum: Optional[int] = None

    def check(self, value: Any) -> Optional[str]:
        """Why ``value`` does not fit this field, or None when it does."""
        if self.type == "list[str]":
            if not isinstance(value, (list, tuple)):
                return f"expected a list of strings, got {type(value).__name__}"
            for item in value:
                if not isinstance(item, str):
                    return f"expected a list of strings, got an item of type {type(item).__name__}"
            return None
        if not _is_type(value, self.type):
            return f"expected {self.type}, got {type(value).__name__} {value!r}"
        if self.enum is not None and value not in self.enum:
            allowed = ", ".join(repr(v) for v in self.enum)
            return f"{value!r} is not one of {allowed}"
        if self.minimum is not None and value < self.minimum:
            return f"{value!r} is below the minimum {self.minimum}"
        return None

    def value_schema(self) -> dict[str, Any]:
        if self.type == "list[str]":
            out: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
        else:
            out = {"type": _JSON_TYPES[self.type]}
        if self.enum is not None:
            out["enum"] = list(self.enum)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        return out


def _is_type(value: Any, type_name: str) -> bool:
    if type_name == "bool":
        return isinstance(value, bool)
    if type_name == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_name == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if type_name == "str":
        return isinstance(value, str)
    return False


_SHARDING = ("none", "ddp", "fsdp_full", "fsdp_hybrid", "fsdp_grad_op", "zero1", "zero2", "zero3")


SHARDING_VALUES = _SHARDING  # the one spelling, shared by the plan and the estimator


# FSDP sharding values and the estimator's FSDP mode for each
FSDP_MODES = {"fsdp_full": "full", "fsdp_hybrid": "hybrid", "fsdp_grad_op": "grad-op"}


def sharding_value(zero_stage: int = 0, fsdp: Optional[str] = None, world_size: int = 1) -> str:
    """The plan's sharding value for a ZeRO stage or an FSDP mode (``full``/``hybrid``/``grad-op``)."""
    if fsdp:
        for value, mode in FSDP_MODES.items():
            if mode == fsdp:
                return value
        raise ValueError(f"unknown FSDP mode {fsdp!r}")
    if zero_stage:
        return f"zero{zero_stage}"
    return "ddp" if world_size > 1 else "none"


_OFFLOAD = ("none", "cpu", "nvme")


_FIELD_LIST: tuple[FieldSpec, ...] = (
    FieldSpec("model.ref", "str", "What is trained or run: a Hub id, a catalog name or a class name."),
    FieldSpec("model.class_name", "str", "The Python class that builds the model (e.g. AutoModelForCausalLM)."),
    FieldSpec("model.num_parameters", "int", "Total number of model parameters.", minimum=0),
    FieldSpec("model.attn_implementation", "str", "Attention kernel the model uses.",
              enum=("eager", "sdpa", "flash_attention_2", "flash_attention_3", "flex_attention")),
    FieldSpec("task.mode", "str", "What the job does with the model.",
              enum=("train", "finetune", "lora", "qlora", "inference", "generation")),
    FieldSpec("precision.mode", "str",
              "Numeric precision of compute: fp32, autocast (amp_*), pure 16-bit weights, or fp8.",
              enum=("fp32", "amp_fp16", "amp_bf16", "fp16", "bf16", "fp8")),
    FieldSpec("precision.weights_bits", "int", "Bits per stored weight (4/8 = quantized).",
              enum=(4, 8, 16, 32)),
    FieldSpec("optimizer.name", "str", "Optimizer class or framework name (AdamW, AdamW8bit, adamw_torch, ...)."),
    FieldSpec("optimizer.state_dtype", "str", "Data type of the optimizer state.",
              enum=("fp32", "bf16", "fp16", "int8", "int4")),
    FieldSpec("batch.micro", "int", "Samples per device per forward/backward pass.", minimum=1),
    FieldSpec("batch.grad_accum", "int", "Micro-batches accumulated per optimizer step.", minimum=1),
    FieldSpec("batch.global", "int", "Samples per optimizer step over all data-parallel ranks.", minimum=1),
    FieldSpec("data.seq_len", "int", "Tokens per sample (maximum sequence length).", minimum=1),
    FieldSpec("data.padding", "str",
              "How batches are padded: max_length (every batch data.seq_len long), dynamic (to the "
              "longest sample of the batch: lengths vary from step to step, and the caching "
              "allocator keeps blocks of every length it served), packed (samples packed into "
              "full-length rows).", enum=("max_length", "dynamic", "packed")),
    FieldSpec("data.group_by_length", "bool",
              "Batches grouped by length (TrainingArguments(group_by_length=True)): megabatches "
              "sorted longest first, the longest batch of the run first."),
    FieldSpec("data.truncation", "str",
              "What the job does with a sample longer than data.seq_len: cut (truncated to it: a tokenizer's "
              "truncation=True, input_ids[:N], TRL SFT, LLaMA-Factory cutoff_len) or drop (filtered out: "
              "a .filter on len(...) <= N, axolotl's default). With dynamic padding it decides how often "
              "batches reach the cap, and so the allocator's length cache.", enum=("cut", "drop")),
    FieldSpec("data.datasets", "list[str]",
              "Datasets the job trains on, as it names them (Hub or ModelScope ids)."),
    FieldSpec("data.longest_sample", "int",
              "Tokens in the longest training sample (chat template included): with dynamic "
              "padding the longest batch, when under data.seq_len.", minimum=1),
    FieldSpec("data.pad_to_multiple_of", "int",
              "The collator pads each batch's length up to a multiple of this (pad_to_multiple_of).",
              minimum=1),
    FieldSpec("data.image_size", "int", "Side of the (square) input image in pixels.", minimum=1),
    FieldSpec("data.num_workers", "int", "DataLoader worker processes.", minimum=0),
    FieldSpec("data.pin_memory", "bool", "Whether the DataLoader pins host memory."),
    FieldSpec("data.sampler", "str", "Sampler class of the training DataLoader (e.g. DistributedSampler)."),
    FieldSpec("generation.max_new_tokens", "int", "Tokens generated per sequence.", minimum=0),
    FieldSpec("generation.num_beams", "int", "Beams of beam search (1 = greedy/sampling).", minimum=1),
    FieldSpec("generation.use_cache", "bool", "Whether generation keeps a KV cache."),
    FieldSpec("dist.devices_per_node", "int", "Processes (GPUs) per node.", minimum=1),
    FieldSpec("dist.nodes", "int", "Number of nodes.", minimum=1),
    FieldSpec("dist.world_size", "int", "Data-parallel processes in total.", minimum=1),
    FieldSpec("dist.sharding", "str", "How parameters, gradients and optimizer state are split over ranks.",
              enum=_SHARDING),
    FieldSpec("dist.offload_params", "str", "Where parameters are offloaded.", enum=_OFFLOAD),
    FieldSpec("dist.offload_optimizer", "str", "Where optimizer state is offloaded.", enum=_OFFLOAD),
    FieldSpec("optimizer.offload_gradients", "bool",
              "The optimizer offload moves each gradient to host memory and frees it on the GPU as "
              "soon as it is accumulated (torchao CPUOffloadOptimizer(offload_gradients=True)): "
              "the GPU never holds the whole set of gradients."),
    FieldSpec("optimizer.foreach", "bool",
              "The optimizer step takes torch's multi-tensor (foreach) path, whose temporaries span the whole "
              "parameter list (True: foreach=True, or torch.optim's CUDA default); False: it updates one "
              "parameter at a time or with a fused in-place kernel (foreach=False, fused=True, transformers' "
              "Adafactor/AdamW, bitsandbytes, apex/DeepSpeed fused, lion-pytorch). Absent: the release default."),
    FieldSpec("optimizer.fused", "bool",
              "The optimizer is torch.optim's fused implementation (fused=True): one in-place kernel "
              "updates the parameter lists, with no step temporaries (torch._fused_adamw_)."),
    FieldSpec("optimizer.zero_grad_after_forward", "bool",
              "The training loop calls zero_grad() after the forward and before backward "
              "(forward, loss, zero_grad, backward, step): the previous step's gradients stay "
              "allocated through every forward."),
    FieldSpec("memory.gradient_checkpointing", "bool", "Activation (gradient) checkpointing enabled."),
    FieldSpec("memory.expandable_segments", "bool",
              "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the caching allocator maps pages "
              "into one growing range instead of a segment per size."),
    FieldSpec("compile.enabled", "bool", "torch.compile applied to the model."),
    FieldSpec("model.activation_function", "str",
              "The MLP activation the job builds the model with, when it sets one apart from the "
              "checkpoint's config (transformers' ACT2FN name: from_pretrained(..., "
              "activation_function=...) or hidden_act=, or a config class called with it): what "
              "the MLP keeps for backward follows it (gelu_new's Python formula keeps five "
              "MLP-width tensors, torch's gelu two)."),
    FieldSpec("compile.loss_inside", "bool",
              "The LM loss runs inside the compiled region: the compiled module computes and "
              "returns the loss (labels passed to it), or the loss function is compiled too "
              "(torchtune's compile_loss). False: only the model is compiled "
              "(model = torch.compile(model)) and the loss runs eagerly on the logits it "
              "returns. Unset: unknown, estimated as the eager loss (the larger)."),
    FieldSpec("peft.method", "str", "Parameter-efficient fine-tuning method.", enum=("lora", "dora", "none")),
    FieldSpec("peft.rank", "int", "LoRA rank r.", minimum=1),
    FieldSpec("peft.target_modules", "list[str]", "Module names the adapters are attached to."),
    FieldSpec("framework.names", "list[str]", "Frameworks detected in the job (sorted)."),
    FieldSpec("precision.quant_type", "str", "Quantized weight format (bitsandbytes 4-bit type or int8).",
              enum=("nf4", "fp4", "int8")),
    FieldSpec("precision.double_quant", "bool", "4-bit double quantization (bnb_4bit_use_double_quant)."),
    FieldSpec("dist.reduce_bucket_size", "int", "DeepSpeed reduce_bucket_size, in elements.", minimum=1),
    FieldSpec("dist.allgather_bucket_size", "int", "DeepSpeed allgather_bucket_size, in elements.", minimum=1),
    FieldSpec("dist.stage3_prefetch_bucket_size", "int", "DeepSpeed stage3_prefetch_bucket_size, in elements.",
              minimum=0),
    FieldSpec("dist.stage3_max_live_parameters", "int", "DeepSpeed stage3_max_live_parameters, in elements.",
              minimum=0),
    FieldSpec("precision.fp16_and_bf16", "bool",
              "fp16 and bf16 both switched on in one setting (one TrainingArguments/SFTConfig call, one "
              "arguments file): the framework refuses to start. Recorded as a pair of facts, the fp16 key's "
              "then the bf16 key's, each at its own line."),
    FieldSpec("dist.save_16bit_weights", "bool",
              "ZeRO-3: saving gathers the full 16-bit weights (stage3_gather_16bit_weights_on_model_save, "
              "accelerate zero3_save_16bit_model)."),
    FieldSpec("target.gpu", "str", "GPU or cloud instance the job must fit (audit --gpu, or target-gpu)."),
    FieldSpec("loss.implementation", "str",
              "How the LM loss is computed: standard (full logits and an fp32 copy), chunked "
              "(logits in chunks: torchtune CEWithChunkedOutputLoss, litgpt), fused (linear + "
              "cross-entropy never hold the logits: Liger, Unsloth, Cut Cross-Entropy), logits "
              "(a reduction of the logits themselves, no cross-entropy: logits.sum() in benchmarks).",
              enum=("standard", "chunked", "fused", "logits")),
    FieldSpec("model.use_cache", "bool",
              "The model returns its key/value cache in a training forward (transformers' "
              "config.use_cache as the job leaves it, on by default): transformers' own gradient "
              "checkpointing switches it off, torch's checkpoint wrapper (FSDP activation "
              "checkpointing) does not."),
    FieldSpec("model.liger_kernels", "bool",
              "Liger's kernels replace the model's RMSNorm and SwiGLU MLP (use_liger_kernel=True, "
              "apply_liger_kernel_to_*(), AutoLigerKernelForCausalLM): a layer saves less for "
              "backward."),
    FieldSpec("loss.in_logits_dtype", "bool",
              "The script computes the LM loss itself on the logits the model returns (shifted "
              "copy and cross-entropy in the logits' own dtype, no fp32 upcast), not the model's "
              "labels= loss."),
    FieldSpec("framework.torch_version", "str",
              "The torch version the project declares (requirements, pyproject, lock files): "
              "version-dependent defaults (zero_grad, foreach, CUDA lazy loading) follow it."),
    FieldSpec("framework.transformers_version", "str",
              "The transformers version the project declares (or --transformers-version): "
              "generate's KV cache format (legacy tuples before 4.42) and the causal-LM loss's "
              "logits copies (4.46-4.48 shift an fp32 copy) follow it."),
    FieldSpec("framework.torchtune_version", "str",
              "The torchtune release a tune-run job pins (pip install torchtune==X in the launch "
              "script, or an exact pin in requirements, pyproject, setup.py, environment.yml or "
              "lock files; a lower bound is not the installed release): before 0.3 the recipes "
              "keep the fp32 logits through backward and compile the model without its loss."),
    FieldSpec("framework.deepspeed_version", "str",
              "The DeepSpeed version the project pins (requirements, pyproject, lock files; a "
              "lower bound is not the installed release), read when the job uses DeepSpeed: ZeRO-1/2 with offload_optimizer copies the "
              "fp32 partition to the GPU after each step in 0.14.1 to 0.16.x."),
    FieldSpec("peft.kbit_prepared", "bool",
              "prepare_model_for_kbit_training runs (called in the script, or by TRL's SFTTrainer "
              "for a quantized model with a peft_config): fp32 embeddings, norms and LM head."),
    FieldSpec("peft.trained_embeddings", "str",
              "The embeddings and LM head train beside the LoRA adapters: 'copy' (LoraConfig("
              "modules_to_save=[...]) trains a copy of each table), 'resized' "
              "(resize_token_embeddings after the adapter is attached: before transformers 4.35 "
              "the new tables require grad).",
              enum=("copy", "resized")),
    FieldSpec("dist.fsdp_unsharded_grad_accum", "bool",
              "Gradient accumulation under FSDP skips the reduce-scatter between syncs "
              "(model.no_sync(), Fabric no_backward_sync): every unit keeps its full unsharded "
              "gradient until the sync step."),
    FieldSpec("dist.fsdp_frozen_grads", "bool",
              "FSDP1 with use_orig_params=True wraps frozen and trainable weights in one unit "
              "(LoRA adapters inside a block wrapped whole): gradient memory is allocated for the "
              "frozen weights too, as if they trained."),
    FieldSpec("dist.fsdp_limit_all_gathers", "bool",
              "FSDP1's rate limiter (FullyShardedDataParallel / FSDPStrategy / "
              "FullyShardedDataParallelPlugin limit_all_gathers=): off, a CPU ahead of the GPU "
              "all-gathers every unit at once. Unset: torch's default (False before 2.1)."),
    FieldSpec("dist.fsdp_version", "int",
              "Which FSDP shards the model: 1 FullyShardedDataParallel (FSDP1), 2 fully_shard "
              "(FSDP2). Under CPU offload FSDP1 keeps every gradient shard on the GPU until "
              "backward ends; FSDP2 moves each to the host at once.", enum=(1, 2)),
    FieldSpec("dist.fsdp_wrap", "str",
              "What one FSDP unit holds, from the wrap policy the job states: block (one unit per "
              "decoder block: transformer_auto_wrap_policy, TRANSFORMER_BASED_WRAP, a fully_shard "
              "loop over the blocks), module (every module with parameters its own unit: "
              "always_wrap_policy, a policy that returns True), size (size_based_auto_wrap_policy, "
              "SIZE_BASED_WRAP, min_num_params), none (NO_WRAP: the whole model one unit).",
              enum=("block", "module", "size", "none")),
    FieldSpec("model.load_placement", "str",
              "Where each rank materialises the weights before ZeRO-3/FSDP shards them: gpu (the "
              "whole model on every GPU: ZeRO-3 without zero.Init, device_map or .to('cuda') before "
              "wrapping), host (CPU, moved unit by unit), sharded (zero.Init, meta-device init, "
              "cpu_ram_efficient_loading).", enum=("gpu", "host", "sharded")),
    FieldSpec("model.implementation", "str",
              "Whose modeling code runs the model: transformers (the default, PEFT adapters in "
              "fp32), litgpt (its own GPT class: torch's gelu, fused qkv, adapters in the model "
              "dtype) or torchtune (its modules, adapters in the model dtype, torchao NF4).",
              enum=("transformers", "litgpt", "torchtune")),
    FieldSpec("model.feature_encoder_frozen", "bool",
              "A speech model's conv feature encoder is frozen (model.freeze_feature_encoder() "
              "runs): it takes no gradient and keeps nothing for backward. Unknown: it trains "
              "(transformers' default)."),
    FieldSpec("model.torch_mha", "bool",
              "The model's attention is torch.nn.MultiheadAttention (torchvision's ViT builders): "
              "from torch 2.0 it runs SDPA in training and copies the output before out_proj when "
              "the memory-efficient kernel returns it (fp32, or no flash kernel) and the batch is "
              "larger than 1."),
    FieldSpec("dist.stage3_max_reuse_distance", "int",
              "DeepSpeed zero_optimization.stage3_max_reuse_distance (elements): a gathered "
              "parameter reused within this distance is not released."),
    FieldSpec("dist.overlap_comm", "bool",
              "DeepSpeed zero_optimization.overlap_comm: ZeRO-1/2 keep two reduce buckets during "
              "backward instead of one (unset: DeepSpeed's default, on for stage 3 only)."),
    FieldSpec("dist.contiguous_gradients", "bool",
              "DeepSpeed zero_optimization.contiguous_gradients (default true): gradients are "
              "copied into reduce_bucket_size buffers on the GPU."),
    FieldSpec("precision.hf_fp16", "bool",
              "The fp16 switch of a TrainingArguments/SFTConfig setting as the HF DeepSpeed integration "
              "compares it with the DeepSpeed config's fp16.enabled (fp16 or fp16_full_eval), when given "
              "explicitly."),
    FieldSpec("precision.hf_bf16", "bool",
              "The bf16 switch of a TrainingArguments/SFTConfig setting as the HF DeepSpeed integration "
              "compares it with the DeepSpeed config's bf16.enabled (bf16 or bf16_full_eval), when given "
              "explicitly."),
    FieldSpec("memory.keeps_outputs", "bool",
              "The training loop keeps the previous step's model output alive into the next "
              "forward: the name bound to the forward's result (the output object, or the logits) "
              "is neither deleted nor rebound before the next forward (outputs = model(**batch) "
              "at loop level, no del). The previous step's logits (and the KV cache a "
              "transformers decoder returns with use_cache on) stay allocated while the next "
              "forward runs. False: the loop keeps only the loss (loss = model(**batch).loss), "
              "deletes the output, or the framework's step drops it (the Trainer's compute_loss)."),
    FieldSpec("dist.ddp_one_process", "bool",
              "The model is wrapped in DistributedDataParallel on ONE process (torchrun "
              "--nproc_per_node 1 over a script whose DDP wrap runs at any world size, ColossalAI's "
              "TorchDDPPlugin): DDP's Reducer still allocates its gradient buckets (a second copy "
              "of the trained gradients). Unset where the wrap is guarded by the world size or the "
              "framework skips DDP for one process (accelerate, Lightning)."),
    FieldSpec("precision.autocast", "bool",
              "Autocast is in effect around the training forward (a torch.autocast / amp "
              "context, accelerate or Trainer mixed precision, Lightning *-mixed precision): "
              "the cross-entropy runs in fp32 whatever the logits' dtype. False: the 16-bit "
              "compute comes only from FSDP's MixedPrecision(param_dtype=...) / "
              "MixedPrecisionPolicy and no autocast runs: the loss stays in the logits' dtype."),
    FieldSpec("model.frozen_copies", "int",
              "Frozen full copies of the model the trainer holds beside the trained one: a "
              "DPO/KTO reference model (TRL builds none for a PEFT model: it disables the adapter "
              "instead).", minimum=0),
    FieldSpec("precision.amp_impl", "str",
              "Who applies mixed precision under amp_fp16: torch (torch.autocast) or apex (NVIDIA apex "
              "AMP O1, which patches torch's functions: its fp32 list holds GELU, autocast's does not).",
              enum=("torch", "apex")),
    FieldSpec("model.gelu_at_call", "bool",
              "The model's GELU looks torch.nn.functional.gelu up when it runs (nn.GELU, or F.gelu "
              "called in a forward of the project's own modules), so apex O1's patch reaches it; "
              "transformers' GELUActivation binds the function when the model is built."),
    FieldSpec("model.weight_views", "bool",
              "The model's own linear layers multiply by a view of each weight (x @ weight.T, "
              "torch.matmul(x, weight.t())) rather than the parameter itself (nn.Linear, F.linear): "
              "autocast caches the cast of a leaf tensor that is not a view, so a forward without "
              "backward under autocast keeps no 16-bit copies of such weights."),
)


FIELDS: dict[str, FieldSpec] = {spec.name: spec for spec in _FIELD_LIST}


def field_spec(name: str) -> FieldSpec:
    try:
        return FIELDS[name]
    except KeyError:
        raise ValueError(f"unknown plan field {name!r}") from None


def accepts(name: str, value: Any) -> bool:
    """True when ``value`` may be added to field ``name`` (for adapters reading user data)."""
    spec = FIELDS.get(name)
    return spec is not None and spec.check(value) is None
