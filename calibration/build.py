"""Build one matrix case (model, optimizer, batch) and run one training step, phase by phase.

Shared by the CPU reference harness and the GPU harness, so both run exactly the same code.
Imports torch, transformers and (for LoRA cases) peft.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, Tuple

import torch
from torch import nn

from calibration.matrix import Case

_TASK_CLASSES = {
    "causal-lm": "AutoModelForCausalLM",
    "masked-lm": "AutoModelForMaskedLM",
    "seq2seq": "AutoModelForSeq2SeqLM",
    "image-classification": "AutoModelForImageClassification",
}


def hf_config(case: Case) -> Any:
    """The transformers config object for a case."""
    import transformers

    config = transformers.AutoConfig.for_model(case.model_type, **case.hf_config)
    if case.attention is not None:
        config._attn_implementation = case.attention
    return config


def config_dict(config: Any) -> Dict[str, Any]:
    """`config.to_dict()` made JSON-ready (drops the library version and label maps)."""
    out = {}
    for key, value in config.to_dict().items():
        if key in ("transformers_version", "id2label", "label2id"):
            continue
        if isinstance(value, (str, int, float, bool, type(None), list, dict)):
            out[key] = value
    return out


def build_model(case: Case, device: torch.device) -> nn.Module:
    """The model of a case on `device`, in training mode, in the case's weight dtype.

    LoRA cases wrap the model with peft (`get_peft_model`): the base is frozen, adapters are
    created in fp32 (peft's `autocast_adapter_dtype` default).
    """
    import transformers

    config = hf_config(case)
    cls = getattr(transformers, _TASK_CLASSES[case.task])
    kwargs: Dict[str, Any] = {}
    if case.attention is not None:
        kwargs["attn_implementation"] = case.attention
    if case.precision == "bf16":  # built in bf16, as from_pretrained(..., dtype=bfloat16)
        kwargs["dtype"] = torch.bfloat16
    with torch.device(device):
        model = cls.from_config(config, **kwargs)
    if case.grad_ckpt:
        kwargs = {"use_reentrant": False}
        if hasattr(model, "activation_checkpointing_enable"):  # transformers >= 5.x name
            model.activation_checkpointing_enable(activation_checkpointing_kwargs=kwargs)
        else:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs=kwargs)
        if hasattr(model, "config"):
            model.config.use_cache = False
    if case.lora_r is not None:
        from peft import LoraConfig, get_peft_model

        if case.grad_ckpt:
            model.enable_input_require_grads()
        lora = LoraConfig(r=case.lora_r, lora_alpha=case.lora_alpha,
                          lora_dropout=case.lora_dropout,
                          target_modules=list(case.lora_targets), bias="none")
        model = get_peft_model(model, lora)
    model.train()
    return model


def build_optimizer(case: Case, model: nn.Module) -> torch.optim.Optimizer:
    params = [p for p in model.parameters() if p.requires_grad]
    foreach = case.optimizer_impl == "foreach"
    if case.optimizer == "adamw":
        return torch.optim.AdamW(params, lr=1e-4, weight_decay=0.01, foreach=foreach)
    if case.optimizer == "sgd-momentum":
        return torch.optim.SGD(params, lr=1e-2, momentum=0.9, foreach=foreach)
    if case.optimizer == "adafactor":
        return torch.optim.Adafactor(params, lr=1e-2, foreach=foreach)
    raise ValueError(f"unknown optimizer {case.optimizer!r}")


def build_batch(case: Case, config: Any, device: torch.device) -> Dict[str, torch.Tensor]:
    """Inputs and labels of one micro-batch (labels make the model compute its own loss)."""
    b = case.batch
    seq, target, image = int(case.seq_len or 0), int(case.target_len or 0), int(case.image_size or 0)
    if case.task in ("causal-lm", "masked-lm"):
        ids = torch.randint(0, config.vocab_size, (b, seq), device=device)
        return {"input_ids": ids, "labels": ids}
    if case.task == "seq2seq":
        ids = torch.randint(0, config.vocab_size, (b, seq), device=device)
        labels = torch.randint(0, config.vocab_size, (b, target), device=device)
        return {"input_ids": ids, "labels": labels}
    if case.task == "image-classification":
        channels = getattr(config, "num_channels", 3)
        pixels = torch.randn(b, channels, image, image, device=device)
        if case.precision == "bf16":
            pixels = pixels.to(torch.bfloat16)
        labels = torch.randint(0, config.num_labels, (b,), device=device)
        return {"pixel_values": pixels, "labels": labels}
    raise ValueError(f"unknown task {case.task!r}")


def param_summary(model: nn.Module) -> Dict[str, int]:
    """Parameter counts and bytes (unique tensors: tied weights count once)."""
    seen = set()
    total = trainable = nbytes = trainable_bytes = 0
    for p in model.parameters():
        if id(p) in seen:
            continue
        seen.add(id(p))
        n = p.numel()
        total += n
        nbytes += n * p.element_size()
        if p.requires_grad:
            trainable += n
            trainable_bytes += n * p.element_size()
    buffers = sum(b.numel() * b.element_size() for b in model.buffers())
    return {"total": total, "trainable": trainable, "bytes": nbytes,
            "trainable_bytes": trainable_bytes, "buffer_bytes": buffers}


def phases(case: Case, model: nn.Module, optimizer: torch.optim.Optimizer,
           batch: Dict[str, torch.Tensor], device: torch.device
           ) -> Iterator[Tuple[str, Callable[[], None]]]:
    """The phases of one training step as (name, thunk), run in order by the harness.

    The loop is the HF Trainer's: the loss is the model's own (labels given), the outputs
    object is dropped before backward, gradients are set to None after the step.
    """
    state: Dict[str, Any] = {}
    autocast = case.precision == "amp-bf16"

    def forward() -> None:
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=autocast):
            state["loss"] = model(**batch).loss

    def backward() -> None:
        state.pop("loss").backward()

    def step() -> None:
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    yield "forward", forward
    yield "backward", backward
    yield "optimizer", step
