"""The five standard jobs of ``preflight fit`` as estimator inputs: the jobs' settings (what the
user gave, defaults capped at the model's positions) and one job on one target as an
:class:`~preflight.estimate.inputs.EstimateInput` with the source of each value (moved out of
:mod:`preflight.commands.fit`, which re-exports them).

Only dataclasses and typing are imported at module level; the estimator loads in ``build_input``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, List, Optional, Tuple

if TYPE_CHECKING:
    from preflight.commands.fit import Model


@dataclass(frozen=True)
class Settings:
    seq_len: int = 2048
    batch: int = 1
    context: int = 4096
    new_tokens: int = 512
    lora_r: int = 16


def _count(target: Any) -> int:
    """GPUs in the target (an instance: its count; a GPU or none: 1)."""
    return int(getattr(target, "count", 1) or 1) if target is not None else 1


def _gpu_bf16(target: Any) -> Optional[bool]:
    """Whether the target's GPU runs bf16 kernels (an instance: its GPU); None if unknown."""
    gpu = getattr(target, "gpu", target)
    value = getattr(gpu, "bf16", None)
    return None if value is None else bool(value)


def build_input(model: Model, s: Settings, mode: str, target: Any = None) -> Tuple[Any, str]:
    """(EstimateInput or None, note) of one standard job on one target."""
    from preflight.estimate import EstimateInput

    arch = model.arch
    family = arch.family
    if mode == "generate" and family in ("encoder", "vision", "cnn"):
        article = "an" if family[0] in "aeiou" else "a"
        return None, f"{article} {family} model does not generate"
    if family == "diffusion" and mode in ("generate", "qlora"):
        return None, ("a diffusion model generates images: see inference (one denoising step)" if mode == "generate"
                      else "QLoRA is not modelled for diffusion pipelines (use LoRA)")
    if mode == "full" and model.quant:
        return None, "a pre-quantized checkpoint cannot be fine-tuned in full (use LoRA/QLoRA)"
    where = "preflight fit"
    sources = {"arch": f"{model.origin} {arch.name}", "micro_batch": f"{where} --batch-size",
               "attention": f"{where} (SDPA)"}
    inp = EstimateInput(arch=arch, micro_batch=s.batch, attention="sdpa", world_size=_count(target),
                        sources=sources)
    bf16 = _gpu_bf16(target)
    if bf16 is not None:
        # the attention kernel the target runs: bf16 SDPA takes the math path before Ampere
        inp.gpu_bf16 = bf16
        sources["gpu_bf16"] = f"{where} target {getattr(target, 'name', '')}"
    if target is not None:
        from preflight.estimate.gpu_facts import resident_threads

        # what the job holds outside the allocator grows with the GPU's resident threads (est30)
        inp.gpu_threads = resident_threads(getattr(target, "gpu", target))
    if family in ("vision", "cnn", "diffusion"):
        inp.image_size = arch.image_size or 224
        sources["image_size"] = "architecture"
    else:
        inp.seq_len = s.seq_len
        sources["seq_len"] = f"{where} --seq-len"
    if _count(target) > 1:
        sources["world_size"] = f"instance {target.name} ({_count(target)} GPUs)"
        if mode in ("lora", "qlora", "full"):
            inp.zero_stage = 3  # training over several GPUs: shard (ZeRO-3 / FSDP full shard)
            sources["zero_stage"] = f"{where}: training on {_count(target)} GPUs shards with ZeRO-3"
    if mode in ("infer", "generate"):
        inp.mode = mode
        inp.precision = "bf16"
        inp.quant = model.quant
        if mode == "generate":
            inp.seq_len = s.context - s.new_tokens
            inp.max_new_tokens = s.new_tokens
            sources["seq_len"] = f"{where} --context minus --new-tokens"
            sources["max_new_tokens"] = f"{where} --new-tokens"
    else:
        inp.mode = "train"
        inp.precision = "amp-bf16"
        inp.optimizer = "adamw"
        if mode in ("lora", "qlora"):
            inp.lora_r = s.lora_r
            sources["lora_r"] = f"{where} --lora-r"
        if mode == "lora":
            inp.weights_bits = 16  # the frozen base loaded in bf16
            inp.quant = model.quant
        if mode == "qlora":
            inp.quant = model.quant or "4bit"
            inp.quant_type = "nf4"
            inp.double_quant = model.quant is None  # the QLoRA recipe: NF4 + double quantization
            inp.kbit_prepared = True
            inp.grad_ckpt = True  # prepare_model_for_kbit_training turns it on
            sources["quant"] = f"{where} (QLoRA)" if model.quant is None else "checkpoint quantization_config"
    job = f"{where} {mode}"
    sources["mode"] = job
    for name in ("precision", "optimizer", "weights_bits", "max_new_tokens", "grad_ckpt", "quant_type",
                 "double_quant", "kbit_prepared"):
        sources.setdefault(name, job)
    if inp.quant:
        sources.setdefault("quant", "checkpoint quantization_config" if model.quant else job)
    tokens = s.context if mode == "generate" else inp.seq_len
    limit = position_limit(arch)
    if tokens and limit and tokens > limit and family not in ("vision", "cnn", "diffusion"):
        what = "--context" if mode == "generate" else "--seq-len"
        return inp, f"{what} {tokens} is beyond the model's {limit} positions (max_position_embeddings)"
    return inp, ""


def position_limit(arch: Any) -> int:
    """The model's maximum positions (``max_position_embeddings``), 0 when it has none."""
    if getattr(arch, "model_type", "") in ("t5", "mt5", "umt5"):
        return 0  # relative position buckets: n_positions is nominal, not a limit
    return int(getattr(arch, "max_position", 0) or 0)


def settings_for(arch: Any, seq_len: Optional[int], batch: int, context: Optional[int],
                 new_tokens: Optional[int], lora_r: int) -> Tuple[Settings, List[str]]:
    """The jobs' settings: what the user gave, and defaults capped at the model's maximum
    positions (a 1024-position GPT-2 is not estimated at 2048 tokens), with a note saying so.
    A value the user gave beyond the positions is kept (and marked by :func:`build_input`)."""
    d = Settings()
    limit = position_limit(arch)
    notes: List[str] = []
    capped = []
    if seq_len is None:
        seq_len = d.seq_len if not limit else min(d.seq_len, limit)
        if seq_len != d.seq_len:
            capped.append(f"--seq-len {seq_len}")
    if context is None:
        context = d.context if not limit else min(d.context, limit)
        if context != d.context:
            capped.append(f"--context {context}")
    if new_tokens is None:
        new_tokens = min(d.new_tokens, max(context // 2, 0))
    if capped:
        notes.append(f"the defaults are capped at the model's {limit} positions "
                     f"(max_position_embeddings): {', '.join(capped)}")
    return Settings(seq_len=seq_len, batch=batch, context=context, new_tokens=new_tokens,
                    lora_r=lora_r), notes
