"""Measure a live model's training step without allocating: FakeTensorMode + MemTracker.

The live model's parameters and buffers are swapped for fake tensors of the same shape,
dtype and device (nothing is allocated, nothing is computed), a fresh optimizer of the same
class and hyper-parameters is built over them, and two training steps run (forward, loss,
backward, optimizer step, zero_grad) exactly as the CPU calibration reference does. The
live model, its gradients and its optimizer are left untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import torch
from torch import nn
from torch._subclasses.fake_tensor import FakeTensorMode

from preflight.guard.live import unwrap_optimizer
from preflight.guard.tracking import (
    FakeSwap,
    FrozenAwareMemTracker,
    ScalarStub,
    reset_peak,
    split,
)

LossFn = Callable[[nn.Module, Any], torch.Tensor]
STEPS = 2


@dataclass
class StepMeasurement:
    """Tensor-level peak of two training steps, overall and per phase (bytes)."""

    peak_bytes: int
    peak_phase: str
    peak_by_category: Dict[str, int]
    phases: Dict[str, Dict[str, int]] = field(default_factory=dict)  # "step2.backward" -> split
    optimizer_measured: bool = True   # False: no optimizer could be rebuilt (states analytic)
    device: str = "cpu"
    notes: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        return dict(self.__dict__)


def _fake_optimizer(optimizer: Any, swap: FakeSwap) -> Optional[torch.optim.Optimizer]:
    """A fresh optimizer of the live one's class and hyper-parameters over the fakes."""
    opt = unwrap_optimizer(optimizer)
    if not isinstance(opt, torch.optim.Optimizer):
        return None
    groups = []
    for group in opt.param_groups:
        params = [swap.params[id(p)] for p in group["params"] if id(p) in swap.params]
        if params:
            groups.append({**{k: v for k, v in group.items() if k != "params"},
                           "params": params})
    if not groups:
        return None
    cls: Any = type(opt)
    try:
        return cls(groups, **opt.defaults)
    except Exception:
        try:
            return cls(groups)
        except Exception:
            return None


def _as_fake(value: Any, fake_mode: FakeTensorMode) -> Any:
    if isinstance(value, torch.Tensor):
        return fake_mode.from_tensor(value)
    if isinstance(value, Mapping):  # dict, HF BatchEncoding: a plain dict of fakes
        return {k: _as_fake(v, fake_mode) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_as_fake(v, fake_mode) for v in value]
        return type(value)(items) if isinstance(value, list) else tuple(items)
    return value


def _hf_main_input(model: nn.Module) -> Optional[str]:
    name = getattr(model, "main_input_name", None)
    return name if isinstance(name, str) else None


def synthetic_batch(model: nn.Module, batch_shape: Sequence[int],
                    device: torch.device, dtype: Optional[torch.dtype] = None) -> Any:
    """A batch of the given shape for the model, created under the active fake mode.

    Token models (HF ``main_input_name == "input_ids"``, or a 2-d shape): random ids below
    the vocabulary size, with ``labels`` equal to the ids for HF language models
    (a sequence-classification head gets one label per sample). Image models (4-d shape):
    ``pixel_values`` (HF) or a plain tensor, in the model's floating dtype.
    """
    shape = tuple(int(d) for d in batch_shape)
    config = getattr(model, "config", None)
    main = _hf_main_input(model)
    cls = type(model).__name__
    if len(shape) == 2 and main in (None, "input_ids", "input_features"):
        vocab = int(getattr(config, "vocab_size", 32000) or 32000)
        ids = torch.randint(0, vocab, shape, device=device)
        if config is None:
            return ids
        if "SequenceClassification" in cls or "TokenClassification" in cls:
            labels = torch.randint(0, max(1, int(getattr(config, "num_labels", 2))),
                                   shape[:1] if "Sequence" in cls else shape, device=device)
            return {"input_ids": ids, "labels": labels}
        return {"input_ids": ids, "labels": ids}
    floating = dtype or next((p.dtype for p in model.parameters() if p.is_floating_point()),
                             torch.float32)
    x = torch.randn(shape, device=device, dtype=floating)
    if config is None:
        return x
    batch: Dict[str, Any] = {main or "pixel_values": x}
    if "Classification" in cls:
        n_labels = int(getattr(config, "num_labels", 2) or 2)
        batch["labels"] = torch.randint(0, n_labels, shape[:1], device=device)
    return batch


def default_loss(model: nn.Module, batch: Any) -> torch.Tensor:
    """The model's own loss when it computes one (HF models given labels); otherwise the
    sum of its floating output (autograd keeps the same saved tensors)."""
    out = model(**batch) if isinstance(batch, dict) else model(batch)
    loss = getattr(out, "loss", None)
    if isinstance(loss, torch.Tensor):
        return loss
    if isinstance(out, Mapping) and isinstance(out.get("loss"), torch.Tensor):
        return out["loss"]
    if isinstance(out, (tuple, list)):
        out = next(o for o in out if isinstance(o, torch.Tensor) and o.is_floating_point())
    return out.float().sum()


def measure_step(model: nn.Module, optimizer: Any, *, batch: Any = None,
                 batch_shape: Optional[Sequence[int]] = None,
                 device: Union[str, torch.device, None] = None,
                 autocast_dtype: Optional[torch.dtype] = None,
                 loss_fn: Optional[LossFn] = None) -> StepMeasurement:
    """Two fake training steps of ``model``; the tensor-level peak by category and phase.

    ``batch`` is an example input (real tensors are converted to fakes without copying);
    otherwise ``batch_shape`` builds one with :func:`synthetic_batch`. ``device``: where the
    fakes live (default: the model's device; a meta model needs one).
    """
    first = next(iter(model.parameters()), None)
    dev = torch.device(device) if device is not None else (
        first.device if first is not None else torch.device("cpu"))
    if dev.type == "meta":
        dev = torch.device("cpu")
    fake_mode = FakeTensorMode(allow_non_fake_inputs=False)
    loss_fn = loss_fn or default_loss
    notes: List[str] = []
    was_training = model.training
    with FakeSwap(model, fake_mode, dev) as swap, fake_mode, ScalarStub():
        fake_opt = _fake_optimizer(optimizer, swap)
        if fake_opt is None:
            notes.append("optimizer not rebuilt on fake parameters: its states are counted "
                         "from its class, not measured")
        if batch is not None:
            fake_batch = _as_fake(batch, fake_mode)
            fake_batch = _to_device(fake_batch, dev)
        elif batch_shape is not None:
            fake_batch = synthetic_batch(model, batch_shape, dev)
        else:
            raise ValueError("give batch_shape=(batch, seq_len) or an example batch")
        model.train()
        mt = FrozenAwareMemTracker()
        tracked: List[Any] = [model, *_tensors(fake_batch)]
        if fake_opt is not None:
            tracked.append(fake_opt)
        mt.track_external(*tracked)
        phases: Dict[str, Dict[str, int]] = {}
        try:
            with mt:
                for step in range(1, STEPS + 1):
                    mt.reset_mod_stats()
                    reset_peak(mt)
                    with torch.autocast(dev.type, dtype=autocast_dtype or torch.bfloat16,
                                        enabled=autocast_dtype is not None):
                        loss = loss_fn(model, fake_batch)
                    phases[f"step{step}.forward"] = split(mt.get_tracker_snapshot("peak"))
                    reset_peak(mt)
                    loss.backward()
                    del loss
                    phases[f"step{step}.backward"] = split(mt.get_tracker_snapshot("peak"))
                    reset_peak(mt)
                    if fake_opt is not None:
                        fake_opt.step()
                        fake_opt.zero_grad(set_to_none=True)
                    else:
                        for p in swap.params.values():
                            p.grad = None
                    phases[f"step{step}.optimizer"] = split(mt.get_tracker_snapshot("peak"))
        finally:
            model.train(was_training)
    peak_phase = max(phases, key=lambda k: phases[k]["total"])
    peak = phases[peak_phase]
    return StepMeasurement(peak_bytes=peak["total"], peak_phase=peak_phase,
                           peak_by_category=peak, phases=phases,
                           optimizer_measured=fake_opt is not None, device=str(dev),
                           notes=notes)


def _tensors(value: Any) -> List[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, Mapping):
        return [t for v in value.values() for t in _tensors(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v)]
    return []


def _to_device(value: Any, dev: torch.device) -> Any:
    if isinstance(value, torch.Tensor):
        return value if value.device == dev else value.to(dev)
    if isinstance(value, dict):
        return {k: _to_device(v, dev) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_to_device(v, dev) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return value
