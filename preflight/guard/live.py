"""Exact memory of live objects: parameters, gradients and optimizer state, in bytes.

Counts what is allocated on THIS rank: a parameter's storage as it is (dtype, quantized
packing, local shard), not a formula. Recognises without importing them:

* PEFT adapters (parameter names containing ``lora_``, ``lora_embedding_``, ``modules_to_save``),
* bitsandbytes quantized weights (``Params4bit``: packed uint8 data plus its
  ``quant_state`` absmax/nested constants; ``Int8Params``: int8 data plus ``SCB`` scales),
* sharded parameters: DeepSpeed ZeRO-3 (``ds_tensor``/``ds_numel``), FSDP2 ``DTensor``
  (local shard), FSDP1 ``FlatParameter`` (already local).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Optional

import torch
from torch import nn

_ADAPTER_MARKERS = ("lora_", "lora_embedding_", "modules_to_save", "ia3_", "prompt_encoder")


@dataclass
class Inventory:
    """Bytes and element counts of one model (+ optimizer) on this rank."""

    params: int = 0                 # elements as the model sees them (unpacked, unsharded)
    params_trainable: int = 0
    param_bytes: int = 0            # bytes allocated on this rank (packed, local shard)
    trainable_bytes: int = 0
    adapter_params: int = 0         # PEFT adapter elements
    quantized_params: int = 0       # elements stored 4/8-bit
    quant_kind: Optional[str] = None  # "4bit" | "8bit" | None
    buffer_bytes: int = 0
    grad_bytes: int = 0             # gradients as they will exist after backward
    grad_bytes_live: int = 0        # gradients allocated right now
    optimizer_state_bytes: int = 0  # optimizer state allocated right now
    sharding: Optional[str] = None  # "zero3" | "fsdp2" | "fsdp1" | None
    dtypes: Dict[str, int] = field(default_factory=dict)  # dtype -> elements

    def to_dict(self) -> Dict[str, Any]:
        return dict(self.__dict__)


def _local(p: torch.Tensor) -> torch.Tensor:
    """The tensor holding this rank's share of a parameter."""
    ds = getattr(p, "ds_tensor", None)
    if isinstance(ds, torch.Tensor):
        return ds
    if type(p).__name__ == "DTensor" or type(getattr(p, "data", None)).__name__ == "DTensor":
        to_local = getattr(p, "to_local", None)
        if callable(to_local):
            return to_local()
    return p


def _storage_bytes(t: torch.Tensor) -> int:
    return t.numel() * t.element_size()


def _extra_quant_bytes(p: torch.Tensor) -> int:
    """Constants that bitsandbytes keeps beside packed weights."""
    total = 0
    state = getattr(p, "quant_state", None)
    if state is not None:
        for name in ("absmax", "code"):
            t = getattr(state, name, None)
            if isinstance(t, torch.Tensor):
                total += _storage_bytes(t)
        nested = getattr(state, "state2", None)
        if nested is not None:
            for name in ("absmax", "code"):
                t = getattr(nested, name, None)
                if isinstance(t, torch.Tensor):
                    total += _storage_bytes(t)
    scb = getattr(p, "SCB", None)
    if isinstance(scb, torch.Tensor):
        total += _storage_bytes(scb)
    return total


def _logical_numel(p: torch.Tensor) -> int:
    """Elements of the weight the model computes with (4-bit packs two per byte)."""
    ds_numel = getattr(p, "ds_numel", None)
    if isinstance(ds_numel, int):
        return ds_numel
    state = getattr(p, "quant_state", None)
    shape = getattr(state, "shape", None)
    if shape is not None:
        n = 1
        for d in shape:
            n *= int(d)
        return n
    return p.numel()


def _unique_params(model: nn.Module) -> Iterable[tuple[str, nn.Parameter]]:
    seen = set()
    for name, p in model.named_parameters(remove_duplicate=False):
        if id(p) in seen:
            continue
        seen.add(id(p))
        yield name, p


def optimizer_state_bytes(optimizer: Any) -> int:
    """Bytes of every tensor in the optimizer's state right now (0 before its first step)."""
    opt = unwrap_optimizer(optimizer)
    if opt is None:
        return 0
    seen = set()
    total = 0
    for state in getattr(opt, "state", {}).values():
        values = state.values() if isinstance(state, dict) else ()
        for v in values:
            if isinstance(v, torch.Tensor) and id(v) not in seen:
                seen.add(id(v))
                total += _storage_bytes(v)
    return total


def unwrap_optimizer(optimizer: Any) -> Any:
    """The torch optimizer inside Lightning/Accelerate/DeepSpeed wrappers."""
    seen = 0
    while optimizer is not None and not isinstance(optimizer, torch.optim.Optimizer) and seen < 5:
        inner = getattr(optimizer, "optimizer", None) or getattr(optimizer, "_optimizer", None)
        if inner is None or inner is optimizer:
            break
        optimizer = inner
        seen += 1
    return optimizer


def unwrap_model(model: nn.Module) -> nn.Module:
    """The user's module inside DDP/FSDP1/DeepSpeed/torch.compile wrappers."""
    for _ in range(5):
        inner = getattr(model, "module", None) or getattr(model, "_orig_mod", None)
        if isinstance(inner, nn.Module) and inner is not model:
            model = inner
        else:
            break
    return model


def inventory(model: nn.Module, optimizer: Any = None) -> Inventory:
    """Exact counts from the live model and optimizer."""
    inv = Inventory()
    for name, p in _unique_params(model):
        local = _local(p)
        kind = type(p).__name__
        logical = _logical_numel(p)
        nbytes = _storage_bytes(local) + _extra_quant_bytes(p)
        inv.params += logical
        inv.param_bytes += nbytes
        key = str(local.dtype).replace("torch.", "")
        inv.dtypes[key] = inv.dtypes.get(key, 0) + logical
        if kind == "Params4bit":
            inv.quantized_params += logical
            inv.quant_kind = "4bit"
        elif kind == "Int8Params":
            inv.quantized_params += logical
            inv.quant_kind = inv.quant_kind or "8bit"
        if any(m in name for m in _ADAPTER_MARKERS):
            inv.adapter_params += logical
        if hasattr(p, "ds_tensor"):
            inv.sharding = "zero3"
        elif local is not p:
            inv.sharding = "fsdp2"
        elif kind == "FlatParameter":
            inv.sharding = "fsdp1"
        if p.requires_grad:
            inv.params_trainable += logical
            inv.trainable_bytes += _storage_bytes(local)
            inv.grad_bytes += _storage_bytes(local)
        if p.grad is not None:
            inv.grad_bytes_live += _storage_bytes(_local(p.grad))
    seen = set()
    for b in model.buffers():
        if id(b) not in seen:
            seen.add(id(b))
            inv.buffer_bytes += _storage_bytes(b)
    inv.optimizer_state_bytes = optimizer_state_bytes(optimizer)
    return inv
