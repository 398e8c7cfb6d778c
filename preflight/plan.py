"""The TrainingPlan: one typed model of a training job that adapters fill and rules read.

Every field holds *facts*: a value, where it came from (:class:`Source`), how sure the
adapter is, and which adapter said it. Facts are never overwritten: when a script
says batch 8 and a DeepSpeed JSON says 4, the plan keeps both, :meth:`TrainingPlan.conflicts`
reports the disagreement and :meth:`TrainingPlan.resolve` picks the one that wins.

Resolution order
    1. ``Fact.priority`` (higher wins). It is 0 unless an adapter knows the framework's
       own precedence (for example "an explicit ``Accelerator(mixed_precision=...)``
       beats the accelerate config file"); such adapters give their facts an explicit
       priority, which beats the generic order below.
    2. Source kind: user > cli > env > config > code > hub > derived > default.
       (``user`` is a value the user stated for the audit itself, e.g. ``--set``.)
    3. Confidence: high > medium > low.
    4. The fact added first.

The field table :data:`FIELDS` is the plan's schema. Adding a fact for an unknown
field, or of the wrong type, raises :class:`ValueError`: that is a bug in an adapter,
not bad user input. The committed JSON Schema ``preflight/schemas/plan.schema.json``
is generated from the table (``python -m preflight.plan --write-schema``) and a test
keeps the two equal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from preflight._record import dataclass
from preflight.diagnostics import FileError

PLAN_VERSION = 1
SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "plan.schema.json"
SCHEMA_ID = "urn:preflight-audit:schema:plan:1"

# Highest precedence first.
SOURCE_KINDS: tuple[str, ...] = ("user", "cli", "env", "config", "code", "hub", "derived", "default")
CONFIDENCES: tuple[str, ...] = ("high", "medium", "low")
_KIND_RANK = {k: i for i, k in enumerate(SOURCE_KINDS)}
_CONF_RANK = {c: i for i, c in enumerate(CONFIDENCES)}

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
    FieldSpec("model.frozen_copies", "int",
              "Frozen full copies of the model the trainer holds beside the trained one: a "
              "DPO/KTO reference model (TRL builds none for a PEFT model: it disables the adapter "
              "instead).", minimum=0),
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


# --------------------------------------------------------------------------- facts


@dataclass(frozen=True)
class Source:
    """Where a fact comes from. ``path`` is a display path; ``key`` a config key path
    (``zero_optimization.stage``) or a CLI flag; ``detail`` free text."""

    kind: str
    path: Optional[str] = None
    line: Optional[int] = None
    key: Optional[str] = None
    detail: Optional[str] = None

    def __post_init__(self) -> None:
        if self.kind not in _KIND_RANK:
            raise ValueError(f"unknown source kind {self.kind!r} (expected one of {', '.join(SOURCE_KINDS)})")
        if self.line is not None and (not isinstance(self.line, int) or isinstance(self.line, bool)
                                      or self.line < 1):
            raise ValueError(f"source line must be a positive int, got {self.line!r}")
        for name in ("path", "key", "detail"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"source {name} must be a string, got {value!r}")

    def location(self) -> str:
        """``file:line`` (or the file, or the kind) for messages."""
        if self.path is None:
            return self.kind
        return f"{self.path}:{self.line}" if self.line is not None else self.path

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "line": self.line, "key": self.key,
                "detail": self.detail}


@dataclass(frozen=True)
class Fact:
    """One statement about a plan field. List values are held as tuples of str."""

    value: Any
    source: Source
    confidence: str = "high"
    adapter: str = ""
    priority: int = 0  # beats source-kind precedence when set (framework-specific order)

    def __post_init__(self) -> None:
        if self.confidence not in _CONF_RANK:
            raise ValueError(f"unknown confidence {self.confidence!r} (expected high, medium or low)")

    def rank(self) -> tuple[int, int, int]:
        """Smaller is stronger (without the insertion-order tie-break)."""
        return (-self.priority, _KIND_RANK[self.source.kind], _CONF_RANK[self.confidence])

    def json_value(self) -> Any:
        return list(self.value) if isinstance(self.value, tuple) else self.value

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.json_value(), "source": self.source.to_dict(),
                "confidence": self.confidence, "adapter": self.adapter, "priority": self.priority}


@dataclass(frozen=True)
class PlanInput:
    """A file (or the launch command) the plan was built from."""

    path: str
    kind: str  # python, notebook, json, yaml, toml, argv, ...
    digest: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "digest": self.digest}


# --------------------------------------------------------------------------- the plan


class TrainingPlan:
    """All facts about one training job, per field, in the order they were added."""

    def __init__(self) -> None:
        self._facts: dict[str, list[Fact]] = {}
        self.inputs: list[PlanInput] = []
        self.notes: list[str] = []

    # -- writing ---------------------------------------------------------
    def add(
        self,
        field: str,
        value: Any,
        source: Source,
        confidence: str = "high",
        *,
        adapter: str,
        priority: int = 0,
    ) -> Fact:
        """Record a fact. Returns it (or the identical fact already recorded)."""
        spec = field_spec(field)
        problem = spec.check(value)
        if problem is not None:
            raise ValueError(f"plan field {field!r}: {problem}")
        if not isinstance(source, Source):
            raise ValueError(f"plan field {field!r}: source must be a Source, got {source!r}")
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise ValueError(f"plan field {field!r}: priority must be an int, got {priority!r}")
        if spec.type == "list[str]":
            value = tuple(value)
        fact = Fact(value=value, source=source, confidence=confidence, adapter=adapter,
                    priority=priority)
        facts = self._facts.setdefault(field, [])
        for existing in facts:
            if existing.source == source and _same(existing.value, value):
                return existing
        facts.append(fact)
        return fact

    def add_input(self, path: str, kind: str, digest: Optional[str] = None) -> None:
        item = PlanInput(path, kind, digest)
        if item not in self.inputs:
            self.inputs.append(item)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    # -- reading ---------------------------------------------------------
    def fields(self) -> list[str]:
        """Fields that hold at least one fact, in schema order."""
        return [name for name in FIELDS if self._facts.get(name)]

    def __contains__(self, field: str) -> bool:
        return bool(self._facts.get(field))

    def facts(self, field: str) -> list[Fact]:
        field_spec(field)
        return list(self._facts.get(field, ()))

    def resolve(self, field: str) -> Optional[Fact]:
        """The fact that wins: priority, then source kind, then confidence, then first added."""
        facts = self.facts(field)
        if not facts:
            return None
        best = facts[0]
        for fact in facts[1:]:
            if fact.rank() < best.rank():
                best = fact
        return best

    def value(self, field: str, default: Any = None) -> Any:
        fact = self.resolve(field)
        return default if fact is None else fact.value

    def capped(self, confidence: str, *fields: str) -> str:
        """``confidence`` lowered to that of the weakest winning fact of ``fields``: a value
        derived from a guess is never more certain than the guess (a field with no fact leaves
        it as it is)."""
        rank = _CONF_RANK[confidence]
        for field in fields:
            fact = self.resolve(field)
            if fact is not None and _CONF_RANK.get(fact.confidence, rank) > rank:
                rank = _CONF_RANK[fact.confidence]
        return CONFIDENCES[rank]

    def conflicts(self, include_defaults: bool = False) -> dict[str, list[Fact]]:
        """Fields whose facts disagree on the value, with those facts.

        A framework default (source kind ``default``) that an explicit value overrides
        is not a conflict, so default facts are left out unless ``include_defaults``; nor is
        a fact that the ``derive`` step re-reads at the same place.
        """
        out: dict[str, list[Fact]] = {}
        for name in self.fields():
            # a fact the ``derive`` step re-reads at the same place (ZeRO's parameter offload below
            # stage 3: the config's cpu is none in effect) is one reading of that place, not two
            reread = {(f.source.path, f.source.line, f.source.key) for f in self._facts[name]
                      if f.adapter == "derive" and f.source.kind == "derived"}
            facts = [f for f in self._facts[name] if (include_defaults or f.source.kind != "default")
                     and (f.adapter == "derive" or (f.source.path, f.source.line, f.source.key) not in reread)]
            if len(facts) < 2:
                continue
            first = facts[0].value
            if any(not agree(name, f.value, first) for f in facts[1:]):
                out[name] = facts
        return out

    # -- serialisation ---------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "version": PLAN_VERSION,
            "fields": {name: [f.to_dict() for f in self._facts[name]]
                       for name in sorted(self._facts) if self._facts[name]},
            "inputs": [i.to_dict() for i in self.inputs],
            "notes": list(self.notes),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_yaml(self) -> str:
        import yaml

        return yaml.safe_dump(self.to_dict(), sort_keys=False, default_flow_style=False,
                              allow_unicode=True, width=100)

    @classmethod
    def from_dict(cls, data: Any) -> TrainingPlan:
        """Rebuild a plan; raises ValueError naming the offending path on bad data."""
        if not isinstance(data, dict):
            raise ValueError("$: a plan must be a mapping")
        check_version(data)
        plan = cls()
        fields = data.get("fields", {})
        if not isinstance(fields, dict):
            raise ValueError("$.fields: expected a mapping of field name to facts")
        for name, facts in fields.items():
            where = f"$.fields[{json.dumps(name)}]"
            if name not in FIELDS:
                raise ValueError(f"{where}: unknown plan field {name!r}")
            if not isinstance(facts, list):
                raise ValueError(f"{where}: expected a list of facts")
            for i, raw in enumerate(facts):
                _fact_from_dict(plan, name, raw, f"{where}[{i}]")
        for i, raw in enumerate(data.get("inputs", []) or []):
            if not isinstance(raw, dict) or not isinstance(raw.get("path"), str) \
                    or not isinstance(raw.get("kind"), str):
                raise ValueError(f"$.inputs[{i}]: expected {{path, kind, digest}}")
            digest = raw.get("digest")
            plan.add_input(raw["path"], raw["kind"], digest if isinstance(digest, str) else None)
        for i, note in enumerate(data.get("notes", []) or []):
            if not isinstance(note, str):
                raise ValueError(f"$.notes[{i}]: expected a string")
            plan.note(note)
        return plan


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same type (so True != 1 and 1 != 1.0 for facts)."""
    return type(a) is type(b) and a == b


# precision modes that name the same 16-bit format: TrainingArguments(bf16=True) (amp_bf16) and
# the DeepSpeed engine's bf16 it turns into (bf16 weights, fp32 master copies) say the same thing
PRECISION_FAMILY = {"amp_bf16": "bf16", "bf16": "bf16", "amp_fp16": "fp16", "fp16": "fp16"}


def agree(field: str, a: Any, b: Any) -> bool:
    """Whether two values of ``field`` say the same thing (no conflict between them)."""
    if field == "precision.mode" and isinstance(a, str) and isinstance(b, str):
        return PRECISION_FAMILY.get(a, a) == PRECISION_FAMILY.get(b, b)
    return _same(a, b)


def check_version(data: dict[str, Any]) -> None:
    version = data.get("version")
    if version != PLAN_VERSION or isinstance(version, bool):
        if version is None:
            raise ValueError(f"$.version: missing; this preflight reads plan version {PLAN_VERSION}")
        raise ValueError(f"$.version: unsupported plan version {version!r}; "
                         f"this preflight reads plan version {PLAN_VERSION}")


def _fact_from_dict(plan: TrainingPlan, name: str, raw: Any, where: str) -> None:
    if not isinstance(raw, dict) or "value" not in raw or not isinstance(raw.get("source"), dict):
        raise ValueError(f"{where}: expected a fact with 'value' and 'source'")
    src = raw["source"]
    value = raw["value"]
    if FIELDS[name].type == "int" and isinstance(value, float) and value.is_integer():
        value = int(value)
    line = src.get("line")
    if isinstance(line, float) and line.is_integer():
        line = int(line)
    priority = raw.get("priority", 0)
    if isinstance(priority, float) and priority.is_integer():
        priority = int(priority)
    try:
        source = Source(kind=src.get("kind"), path=src.get("path"), line=line,
                        key=src.get("key"), detail=src.get("detail"))
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise ValueError(f"priority must be an integer, got {priority!r}")
        plan.add(name, value, source, raw.get("confidence", "high"),
                 adapter=str(raw.get("adapter", "")), priority=priority)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


# --------------------------------------------------------------------------- schema


def plan_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a serialised plan, built from :data:`FIELDS`."""
    nullable_str = {"type": ["string", "null"]}
    field_props: dict[str, Any] = {}
    for spec in _FIELD_LIST:
        field_props[spec.name] = {
            "description": spec.description,
            "type": "array",
            "items": {"$ref": "#/$defs/fact", "properties": {"value": spec.value_schema()}},
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "preflight TrainingPlan",
        "description": "Facts about one PyTorch training job, each with its source. "
                       "Generated from preflight/plan.py; do not edit by hand.",
        "type": "object",
        "required": ["version", "fields"],
        "additionalProperties": False,
        "properties": {
            "version": {"const": PLAN_VERSION},
            "fields": {"type": "object", "additionalProperties": False, "properties": field_props},
            "inputs": {"type": "array", "items": {"$ref": "#/$defs/input"}},
            "notes": {"type": "array", "items": {"type": "string"}},
        },
        "$defs": {
            "source": {
                "type": "object",
                "required": ["kind"],
                "additionalProperties": False,
                "properties": {
                    "kind": {"enum": list(SOURCE_KINDS)},
                    "path": nullable_str,
                    "line": {"type": ["integer", "null"], "minimum": 1},
                    "key": nullable_str,
                    "detail": nullable_str,
                },
            },
            "fact": {
                "type": "object",
                "required": ["value", "source"],
                "additionalProperties": False,
                "properties": {
                    "value": True,
                    "source": {"$ref": "#/$defs/source"},
                    "confidence": {"enum": list(CONFIDENCES)},
                    "adapter": {"type": "string"},
                    "priority": {"type": "integer"},
                },
            },
            "input": {
                "type": "object",
                "required": ["path", "kind"],
                "additionalProperties": False,
                "properties": {"path": {"type": "string"}, "kind": {"type": "string"},
                               "digest": nullable_str},
            },
        },
    }


def schema_text() -> str:
    """The schema exactly as committed (stable key order, trailing newline)."""
    return json.dumps(plan_json_schema(), indent=2, ensure_ascii=False) + "\n"


def validate_plan_data(data: Any) -> Optional[tuple[str, tuple[Union[str, int], ...]]]:
    """The first schema violation as (message, path), or None when ``data`` is valid."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    validator = Draft202012Validator(plan_json_schema())
    error = best_match(validator.iter_errors(data))
    if error is None:
        return None
    path = tuple(error.absolute_path)
    message = error.message
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        extra = sorted((k for k in error.instance if k not in known), key=str)
        if extra:
            path = (*path, extra[0])
            what = "plan field" if path[:1] == ("fields",) and len(path) == 2 else "key"
            message = f"unknown {what} {extra[0]!r}"
            import difflib

            close = difflib.get_close_matches(str(extra[0]), [str(k) for k in known], n=1)
            if close:
                message += f" (did you mean {close[0]!r}?)"
    return f"{_json_path(path)}: {message}", path


def _json_path(path: Sequence[Union[str, int]]) -> str:
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}"
        else:
            out += f"[{json.dumps(part)}]"
    return out


def load_plan(path: Path, display: Optional[str] = None) -> Union[TrainingPlan, FileError]:
    """Read a plan written by ``--emit-plan`` (or by hand): JSON, or YAML by suffix."""
    from preflight.loaders import load_config
    from preflight.sources import read_source

    display = display or str(path)
    suffix = path.suffix.lower()
    if suffix not in (".json", ".yaml", ".yml"):
        return FileError(display, "a plan file must end in .json, .yaml or .yml")
    kind = "json" if suffix == ".json" else "yaml"
    source = read_source(path, display, kind)
    if isinstance(source, FileError):
        return source
    loaded = load_config(source)
    if isinstance(loaded, FileError):
        return loaded
    data = loaded.data
    if not isinstance(data, dict):
        return FileError(display, "not a preflight plan: expected a mapping with 'version' and 'fields'",
                         line=1)
    try:
        check_version(data)
    except ValueError as exc:
        return FileError(display, f"invalid plan: {exc}", line=loaded.line_of(("version",)) or 1)
    problem = validate_plan_data(data)
    if problem is not None:
        message, where = problem
        return FileError(display, f"invalid plan: {message}", line=loaded.line_of(where, nearest=True))
    try:
        return TrainingPlan.from_dict(data)
    except ValueError as exc:
        return FileError(display, f"invalid plan: {exc}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--write-schema"]:
        SCHEMA_PATH.parent.mkdir(parents=True, exist_ok=True)
        SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
        return 0
    if args == ["--check-schema"]:
        current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else ""
        if current != schema_text():
            print(f"{SCHEMA_PATH} is out of date; run: python -m preflight.plan --write-schema")
            return 1
        return 0
    print("usage: python -m preflight.plan --write-schema | --check-schema", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
