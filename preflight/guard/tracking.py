"""Tensor-level memory tracking without memory: FakeTensorMode + MemTracker helpers.

Shared by the guard (which measures a live model) and the CPU calibration harness
(`calibration/reference.py`, which measures models built from config), so both count the
same way. Imports torch.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any, Dict, Tuple

import torch
from torch import nn
from torch.distributed._tools.mem_tracker import MemTracker, _MemRefType
from torch.utils._python_dispatch import TorchDispatchMode

#: MemTracker's category names -> the short keys used in preflight's data and reports.
CATEGORIES = {"Parameter": "param", "Buffer": "buffer", "Gradient": "grad",
              "Activation": "act", "Temp": "temp", "Optstate": "opt", "Other": "other"}


class FrozenAwareMemTracker(MemTracker):
    """MemTracker that does not hook gradients of frozen parameters.

    Upstream installs a gradient hook on every parameter of every module it sees run,
    which fails on parameters with ``requires_grad=False`` (a LoRA model's frozen base).
    Same bookkeeping otherwise: frozen parameters still count as PARAM.
    """

    def _track_module_params_and_buffers(self, module: nn.Module,
                                         install_grad_hooks: bool = True) -> Tuple[int, int]:
        param_memory = buffer_memory = 0
        trainable = nn.Module()
        for i, param in enumerate(module.parameters()):
            if param.requires_grad:
                trainable.register_parameter(f"p{i}", param)
            else:
                winfos = self._update_and_maybe_create_winfos(param, _MemRefType.PARAM)
                param_memory += sum(w.mem_consumed for w in winfos)
        for buffer in module.buffers():
            winfos = self._update_and_maybe_create_winfos(buffer, _MemRefType.BUFFER)
            buffer_memory += sum(w.mem_consumed for w in winfos)
        tracked, _ = super()._track_module_params_and_buffers(trainable, install_grad_hooks)
        return param_memory + tracked, buffer_memory


class ScalarStub(TorchDispatchMode):
    """Answer data-dependent scalar reads (``tensor.item()``) with 1 instead of failing.

    Fake tensors hold no values; Adafactor reads its step count and RMS norms as Python
    floats, gradient clipping reads a norm. The value feeds scalar arithmetic; where Python
    control flow branches on a tensor, the measured step follows the branch for 1/True.
    Ops whose output SIZE depends on values (``nonzero``, boolean masks) still fail.
    """

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func is torch.ops.aten._local_scalar_dense.default:
            dtype = args[0].dtype
            if dtype == torch.bool:
                return True
            return 1.0 if dtype.is_floating_point else 1
        return func(*args, **(kwargs or {}))


def split(snapshot: Dict[Any, Dict[Any, int]]) -> Dict[str, int]:
    """A MemTracker snapshot as ``{category: bytes, "total": bytes}``, summed over devices."""
    out = dict.fromkeys([*CATEGORIES.values(), "total"], 0)
    for dev_snap in snapshot.values():
        for key, value in dev_snap.items():
            name = getattr(key, "value", key)
            out[CATEGORIES.get(name, "total")] += int(value)
    return out


def reset_peak(mt: MemTracker) -> None:
    """Start a new peak window at the current level (MemTracker keeps one running peak)."""
    current = mt.get_tracker_snapshot("current")
    mt._peak_mem_snap = deepcopy(current)
    mt._peak_mem = {dev: snap["Total"] for dev, snap in current.items()}


class FakeSwap:
    """Swap a module's parameters and buffers for fake tensors of the same shape, dtype,
    device and ``requires_grad``; put the originals back on exit.

    Nothing is allocated (fake tensors carry metadata only) and the live model is left as
    it was. Tied parameters stay tied. ``device`` overrides the device of the fakes (a model
    built on the meta device becomes a fake CPU/CUDA model).
    """

    def __init__(self, model: nn.Module, fake_mode: Any, device: Any = None) -> None:
        self.model = model
        self.fake_mode = fake_mode
        self.device = device
        self._saved: list = []
        self.params: Dict[int, nn.Parameter] = {}  # id(original) -> fake parameter

    def _fake(self, t: torch.Tensor, memo: Dict[int, torch.Tensor]) -> torch.Tensor:
        if id(t) not in memo:
            device = self.device if self.device is not None else t.device
            with self.fake_mode:
                memo[id(t)] = torch.empty_strided(tuple(t.size()), tuple(t.stride()),
                                                  dtype=t.dtype, device=device)
        return memo[id(t)]

    def __enter__(self) -> FakeSwap:
        memo: Dict[int, torch.Tensor] = {}
        for module in self.model.modules():
            for name, p in list(module._parameters.items()):
                if p is None:
                    continue
                if id(p) not in self.params:
                    self.params[id(p)] = nn.Parameter(self._fake(p, memo),
                                                      requires_grad=p.requires_grad)
                self._saved.append((module._parameters, name, p))
                module._parameters[name] = self.params[id(p)]
            for name, b in list(module._buffers.items()):
                if b is None:
                    continue
                self._saved.append((module._buffers, name, b))
                module._buffers[name] = self._fake(b, memo)
        return self

    def __exit__(self, *exc: Any) -> None:
        for store, name, original in reversed(self._saved):
            store[name] = original
        self._saved.clear()
