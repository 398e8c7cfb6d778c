"""VRAMGuard: project the peak of a live training job before its first step; compare after.

The projection has three parts:

* exact bytes of the live objects (:mod:`preflight.guard.live`): parameters as stored
  (dtype, 4/8-bit packing, local shard), buffers, optimizer state already allocated;
* the tensor-level peak of two training steps measured without allocating
  (:mod:`preflight.guard.measure`: FakeTensorMode + MemTracker, the method of the CPU
  calibration reference): gradients, optimizer states and their step temporaries,
  activations, backward temporaries, at the batch given;
* what the CUDA device adds beyond tensors (context, cuBLAS workspace, allocator
  fragmentation), from the estimator's constants (:mod:`preflight.estimate.constants`).

The verdict and the remediations are the estimator's (:func:`preflight.estimate.verdict`,
:func:`preflight.estimate.remediate`), so the guard and ``preflight estimate`` speak alike.
"""

from __future__ import annotations

import datetime
import json
import re
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import torch
from torch import nn

from preflight.guard import live
from preflight.guard.errors import VRAMGuardError, VRAMGuardWarning
from preflight.guard.measure import LossFn, StepMeasurement, measure_step

GIB = 1024 ** 3
_OVERHEADS = ("cuda_context", "cublas_workspace", "fragmentation")
VERDICT_ORDER = ("fits", "tight", "likely-oom", "oom")
RAISE_LEVELS = ("tight", "likely-oom", "oom", "never")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(b|kib|mib|gib|tib|kb|mb|gb|tb)\s*$", re.I)
_UNITS = {"b": 1, "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40,
          "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}


@dataclass(frozen=True)
class DeviceTarget:
    """A target given as a size or read from the local device (same shape as a catalog GPU
    for :func:`preflight.estimate.verdict`)."""

    name: str
    memory_bytes: int


def resolve_target(target: Any, device: Optional[torch.device]) -> Any:
    """A catalog GPU/instance, a :class:`DeviceTarget`, from a name, a size or the device.

    ``None``: the CUDA device's total memory. An int: bytes. A string: a size (``"24GiB"``,
    ``"1 MiB"``, ``"80GB"``) or a catalog name (``"a100-80gb"``, ``"p4d.24xlarge"``).
    """
    if target is None:
        if device is not None and device.type == "cuda" and torch.cuda.is_available():
            props = torch.cuda.get_device_properties(device)
            return DeviceTarget(props.name, int(props.total_memory))
        raise VRAMGuardError("no target: give target= (a GPU name such as 'a100-80gb', "
                             "or a size such as '24GiB') when the model is not on a CUDA "
                             "device")
    if isinstance(target, bool):
        raise VRAMGuardError(f"target {target!r} is neither a GPU name nor a size")
    if isinstance(target, int):
        return DeviceTarget(f"{target / GIB:.3g} GiB", target)
    if isinstance(target, str):
        m = _SIZE.match(target)
        if m:
            return DeviceTarget(target.strip(),
                                int(float(m.group(1)) * _UNITS[m.group(2).lower()]))
        try:
            from preflight import hardware
            found = hardware.find(target)
        except ImportError:
            found = None
        if found is None:
            raise VRAMGuardError(f"unknown GPU or instance {target!r} (see 'preflight gpus "
                                 "--instances'), and not a size such as '24GiB'")
        return found
    if hasattr(target, "memory_bytes") or hasattr(getattr(target, "gpu", None), "memory_bytes"):
        return target
    raise VRAMGuardError(f"target {target!r} is neither a GPU name nor a size")


def target_bytes(target: Any) -> int:
    gpu = getattr(target, "gpu", None) or target
    return int(gpu.memory_bytes)


def target_name(target: Any) -> str:
    return str(getattr(target, "name", target))


def _constants() -> Dict[str, Any]:
    """The estimator's device overheads and tolerances (zero when it is not installed)."""
    try:
        from preflight.estimate import constants as C
    except ImportError:
        return {"context": (0, 0, 0), "cublas": 0, "frag": (0.0, 0.0, 0.0), "act_rel": 0.10,
                "source": "none (preflight.estimate not available)"}
    lo, hi = C.CUDA_CONTEXT_RANGE
    flo, fhi = C.FRAGMENTATION_RANGE
    return {"context": (int(lo), int(C.CUDA_CONTEXT_BYTES), int(hi)),
            "cublas": int(C.CUBLAS_WORKSPACE_BYTES),
            "frag": (float(flo), float(C.FRAGMENTATION), float(fhi)),
            "act_rel": float(C.ACTIVATIONS_REL["known"]),
            "source": "preflight.estimate.constants"}


@dataclass
class GuardReport:
    """The guard's projection for one job against one target."""

    target: str
    capacity_bytes: int
    peak_bytes: int
    interval_bytes: Tuple[int, int]
    phase: str
    verdict: str
    breakdown: Dict[str, int]
    inventory: Dict[str, Any]
    measurement: Optional[Dict[str, Any]]
    remediations: List[Dict[str, Any]] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    tensor_peak_bytes: int = 0   # the part torch.cuda.max_memory_allocated() compares to
    model_name: str = ""
    estimate_input: Any = field(default=None, repr=False, compare=False)

    def to_dict(self) -> Dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "estimate_input"}
        out["interval_bytes"] = list(self.interval_bytes)
        return out

    def retarget(self, target: Any, usable_fraction: float = 1.0) -> GuardReport:
        """The same projection judged against another target (nothing is re-measured)."""
        tgt = resolve_target(target, None)
        capacity = target_bytes(tgt) * usable_fraction
        verdict = _verdict(self.peak_bytes, self.interval_bytes, self.phase, self.breakdown,
                           tgt, usable_fraction)
        notes = [n for n in self.notes if not n.startswith("no remediations")]
        remedies: List[Dict[str, Any]] = []
        if verdict not in ("fits", "unknown"):
            remedies, more = _remediations(self.estimate_input, tgt, self.peak_bytes, capacity,
                                           usable_fraction)
            notes.extend(more)
        return replace(self, target=target_name(tgt), capacity_bytes=int(capacity),
                       verdict=verdict, remediations=remedies, notes=notes)

    def text(self) -> str:
        lo, hi = self.interval_bytes
        lines = [f"projected peak {_gib(self.peak_bytes)} (interval {_gib(lo)} .. {_gib(hi)}) "
                 f"at {self.phase} on {self.target} ({_gib(self.capacity_bytes)}): "
                 f"{self.verdict}"]
        terms = ", ".join(f"{k.replace('_', ' ')} {_gib(v)}"
                          for k, v in self.breakdown.items() if v)
        lines.append(f"  {terms}")
        fitting = [r for r in self.remediations if r.get("fits")]
        shown = fitting or self.remediations
        if shown and self.verdict != "fits":
            lines.append("  changes that would make it fit:" if fitting else
                         "  changes that save memory (none fits alone):")
            for r in shown[:5]:
                lines.append(f"    - {' + '.join(r['changes'])}: saves {_gib(r['saved_bytes'])}"
                             f" -> {_gib(r['new_peak_bytes'])} ({r['cost']})")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)


def _gib(n: float) -> str:
    if abs(n) < GIB:
        return f"{n / 2**20:.1f} MiB"
    return f"{n / GIB:.2f} GiB"


def _precision(model: nn.Module, autocast_dtype: Optional[torch.dtype]) -> str:
    counts: Dict[torch.dtype, int] = {}
    for p in model.parameters():
        if p.is_floating_point():
            counts[p.dtype] = counts.get(p.dtype, 0) + p.numel()
    main = max(counts, key=lambda d: counts[d]) if counts else torch.float32
    if main == torch.float32 and autocast_dtype is not None:
        return "amp-bf16" if autocast_dtype == torch.bfloat16 else "amp-fp16"
    return {torch.bfloat16: "bf16", torch.float16: "fp16"}.get(main, "fp32")


def estimate_input(model: nn.Module, optimizer: Any, inv: live.Inventory, *,
                   batch_shape: Optional[Sequence[int]],
                   autocast_dtype: Optional[torch.dtype]) -> Any:
    """The estimator's input for the live job (None when the estimator is not installed or
    the model has no Hugging Face config it can read)."""
    try:
        from preflight.estimate import EstimateInput
        from preflight.estimate.arch import from_hf_config
        from preflight.estimate.inputs import normalise_optimizer
    except ImportError:
        return None
    config = getattr(model, "config", None)
    to_dict = getattr(config, "to_dict", None)
    arch = None
    if callable(to_dict):
        try:
            arch = from_hf_config(to_dict(), name=str(getattr(config, "name_or_path", "")
                                                      or type(model).__name__))
        except Exception:
            arch = None
    opt = live.unwrap_optimizer(optimizer)
    opt_name = normalise_optimizer(type(opt).__name__) if opt is not None else None
    if opt_name in ("sgd",) and opt is not None and opt.defaults.get("momentum"):
        opt_name = "sgd-momentum"
    shape = list(batch_shape or [])
    image = len(shape) == 4
    attn = str(getattr(config, "_attn_implementation", "") or "sdpa")
    attn = "flash" if attn.startswith("flash") else ("eager" if attn == "eager" else "sdpa")
    peft_cfg = getattr(model, "peft_config", None)
    lora_r = None
    if isinstance(peft_cfg, dict) and peft_cfg:
        lora_r = getattr(next(iter(peft_cfg.values())), "r", None)
    sharding: Dict[str, Any] = {}
    if inv.sharding == "zero3":
        sharding["zero_stage"] = 3
    elif inv.sharding in ("fsdp1", "fsdp2"):
        sharding["fsdp"] = "full"
    world = 1
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        world = torch.distributed.get_world_size()
    try:
        return EstimateInput(
            arch=arch, params=(inv.params - inv.adapter_params) if arch is None else None,
            mode="train", precision=_precision(model, autocast_dtype),
            optimizer=opt_name or "adamw", micro_batch=int(shape[0]) if shape else 1,
            seq_len=int(shape[1]) if len(shape) == 2 else None,
            image_size=int(shape[-1]) if image else None,
            grad_ckpt=_checkpointing(model),
            attention=attn, world_size=world, lora_r=lora_r, quant=inv.quant_kind,
            sources={"*": "live model (preflight.guard)"}, **sharding)
    except TypeError:
        return None


def _checkpointing(model: nn.Module) -> bool:
    """Whether (activation) gradient checkpointing is on, without deprecation warnings."""
    for name in ("is_activation_checkpointing", "is_gradient_checkpointing"):
        try:
            value = getattr(type(model), name, None)
            if value is not None:
                return bool(getattr(model, name))
        except Exception:
            continue
    return False


def _remediations(inp: Any, target: Any, point: int, capacity: float,
                  usable_fraction: float) -> Tuple[List[Dict[str, Any]], List[str]]:
    """The estimator's remediations, re-based on the guard's projection."""
    if inp is None:
        return [], ["no remediations: the estimator could not read this model"]
    try:
        from preflight.estimate import remediate
        found = remediate(inp, target, usable_fraction=usable_fraction)
    except Exception as exc:  # the guard must not die on an estimator gap
        return [], [f"no remediations: the estimator failed ({type(exc).__name__}: {exc})"]
    out = []
    for r in found:
        new_peak = max(0, point - int(r.saved_bytes))
        out.append({"changes": list(r.changes), "cost": r.cost, "saved_bytes": int(r.saved_bytes),
                    "new_peak_bytes": new_peak, "fits": new_peak <= capacity,
                    "flags": list(getattr(r, "flags", []))})
    return out, []


def _verdict(point: int, interval: Tuple[int, int], phase: str, breakdown: Dict[str, int],
             target: Any, usable_fraction: float) -> str:
    try:
        from preflight.estimate import Estimate, verdict
    except ImportError:
        cap = target_bytes(target) * usable_fraction
        lo, hi = interval
        return ("fits" if hi <= cap else "tight" if point <= cap
                else "likely-oom" if lo <= cap else "oom")
    est = Estimate(peak_bytes=point, interval_bytes=interval, phase=phase, breakdown=breakdown)
    return verdict(est, target, usable_fraction)


def project(model: nn.Module, optimizer: Any = None, *, batch_shape: Optional[Sequence[int]] = None,
            batch: Any = None, device: Union[str, torch.device, None] = None, target: Any = None,
            autocast_dtype: Optional[torch.dtype] = None, loss_fn: Optional[LossFn] = None,
            usable_fraction: float = 1.0, cuda_overheads: bool = True) -> GuardReport:
    """The guard's projection (no policy applied: never raises for a job that does not fit)."""
    if batch is None and batch_shape is None:
        raise VRAMGuardError("give batch_shape=(batch, seq_len) (or the shape of an image "
                             "batch) or an example batch=")
    model = live.unwrap_model(model)
    first = next(iter(model.parameters()), None)
    dev = torch.device(device) if device is not None else (
        first.device if first is not None else torch.device("cpu"))
    tgt = resolve_target(target, dev)
    capacity = target_bytes(tgt) * usable_fraction
    inv = live.inventory(model, optimizer)
    notes: List[str] = []
    if inv.sharding:
        notes.append(f"sharded parameters ({inv.sharding}): weights, gradients and states are "
                     "this rank's shards; activations are measured on the full layer shapes")
    k = _constants()
    m: Optional[StepMeasurement] = None
    try:
        m = measure_step(model, optimizer, batch=batch, batch_shape=batch_shape, device=dev,
                         autocast_dtype=autocast_dtype, loss_fn=loss_fn)
    except Exception as exc:
        notes.append(f"the fake training step failed ({type(exc).__name__}: {exc}); "
                     "activations come from the cost model")
    inp = estimate_input(model, optimizer, inv, batch_shape=batch_shape
                         if batch_shape is not None else _shape_of(batch),
                         autocast_dtype=autocast_dtype)
    if m is not None:
        cats = m.peak_by_category
        # The fake step counts parameters and buffers as the fakes' sizes; swap in the live
        # storage (packed 4-bit weights, local shards, quantization constants).
        tensor_peak = (m.peak_bytes - cats["param"] - cats["buffer"]
                       + inv.param_bytes + inv.buffer_bytes)
        if not m.optimizer_measured:
            tensor_peak += inv.optimizer_state_bytes
        notes.extend(m.notes)
        act_var = cats["act"] + cats["temp"]
        rel = 0.0 if m.device.startswith("cuda") else k["act_rel"]
        if rel:
            notes.append(f"measured with {m.device} kernels; activations +-{rel:.0%} for a GPU")
        phase = m.peak_phase
        breakdown = {"weights": inv.param_bytes, "buffers": inv.buffer_bytes,
                     "gradients": cats["grad"], "optimizer_states": cats["opt"],
                     "activations": cats["act"], "backward_transient": cats["temp"],
                     "inputs": cats["other"]}
        lo_t, hi_t = tensor_peak - rel * act_var, tensor_peak + rel * act_var
    else:
        est = _cost_model(inp)
        if est is None:
            raise VRAMGuardError("could not measure the training step and the cost model "
                                 "cannot read this model: " + "; ".join(notes))
        tensor_peak, phase = est.tensor_peak()
        breakdown = {t: int(v) for t, v in est.breakdown.items()
                     if cuda_overheads or t not in _OVERHEADS}
        # The estimator's interval already holds its overheads; without them, shift it.
        shift = 0 if cuda_overheads else int(est.peak_bytes) - int(tensor_peak)
        lo_t, hi_t = est.interval_bytes[0] - shift, est.interval_bytes[1] - shift
        point = int(est.peak_bytes) - shift
    if m is None:
        interval = (int(lo_t), int(hi_t))
    elif cuda_overheads:
        c_lo, c_mid, c_hi = k["context"]
        f_lo, f_mid, f_hi = k["frag"]
        breakdown["cuda_context"] = c_mid
        breakdown["cublas_workspace"] = k["cublas"]
        breakdown["fragmentation"] = int(f_mid * tensor_peak)
        point = int(tensor_peak + c_mid + k["cublas"] + f_mid * tensor_peak)
        interval = (int(lo_t + c_lo + f_lo * lo_t), int(hi_t + c_hi + k["cublas"] + f_hi * hi_t))
    else:
        point, interval = int(tensor_peak), (int(lo_t), int(hi_t))
    verdict = _verdict(point, interval, phase, breakdown, tgt, usable_fraction)
    remedies: List[Dict[str, Any]] = []
    if verdict not in ("fits", "unknown"):
        remedies, more = _remediations(inp, tgt, point, capacity, usable_fraction)
        notes.extend(more)
    return GuardReport(target=target_name(tgt), capacity_bytes=int(capacity), peak_bytes=point,
                       interval_bytes=interval, phase=phase, verdict=verdict,
                       breakdown=breakdown, inventory=inv.to_dict(),
                       measurement=m.to_dict() if m is not None else None,
                       remediations=remedies, notes=notes, tensor_peak_bytes=int(tensor_peak),
                       model_name=type(model).__name__, estimate_input=inp)


def _cost_model(inp: Any) -> Any:
    """The estimator's projection, only for a model whose architecture it can read (a
    parameter count alone would make it guess a transformer's shape)."""
    if inp is None or getattr(inp, "arch", None) is None:
        return None
    try:
        from preflight.estimate import estimate
        est = estimate(inp)
    except Exception:
        return None
    return est if getattr(est, "peak_bytes", None) is not None else None


def _shape_of(batch: Any) -> Optional[List[int]]:
    if isinstance(batch, torch.Tensor):
        return list(batch.shape)
    if isinstance(batch, dict):
        for key in ("input_ids", "pixel_values", "input_features", "inputs_embeds"):
            if isinstance(batch.get(key), torch.Tensor):
                return list(batch[key].shape[:2]) if key != "pixel_values" \
                    else list(batch[key].shape)
        for v in batch.values():
            if isinstance(v, torch.Tensor):
                return list(v.shape)
    if isinstance(batch, (list, tuple)) and batch and isinstance(batch[0], torch.Tensor):
        return list(batch[0].shape)
    return None


class VRAMGuard:
    """Check that a training job fits before its first step; compare with the real peak after.

    ``with VRAMGuard(model, optimizer, batch_shape=(8, 2048), target="a100-80gb"):`` runs
    the projection on entry: it raises :class:`VRAMGuardError` (with the remediations) when
    the verdict reaches ``raise_on`` (default ``"oom"``: the job cannot fit even at the
    optimistic end of the interval), warns (:class:`VRAMGuardWarning`) when it is tight or
    likely out of memory, and on exit compares the projection with
    ``torch.cuda.max_memory_allocated()`` (when the model runs on CUDA) and appends both to
    the JSON file ``record`` if given.
    """

    def __init__(self, model: nn.Module, optimizer: Any = None, *,
                 batch_shape: Optional[Sequence[int]] = None, batch: Any = None,
                 device: Union[str, torch.device, None] = None, target: Any = None,
                 autocast_dtype: Optional[torch.dtype] = None, loss_fn: Optional[LossFn] = None,
                 usable_fraction: float = 1.0, raise_on: str = "oom",
                 cuda_overheads: bool = True, record: Union[str, Path, None] = None) -> None:
        if raise_on not in RAISE_LEVELS:
            raise ValueError(f"raise_on must be one of {', '.join(RAISE_LEVELS)}")
        self.model, self.optimizer = model, optimizer
        self.kwargs = dict(batch_shape=batch_shape, batch=batch, device=device, target=target,
                           autocast_dtype=autocast_dtype, loss_fn=loss_fn,
                           usable_fraction=usable_fraction, cuda_overheads=cuda_overheads)
        self.raise_on = raise_on
        self.record = Path(record) if record is not None else None
        self.report: Optional[GuardReport] = None
        self.comparison: Optional[Dict[str, Any]] = None
        self._batch_shape = batch_shape if batch_shape is not None else _shape_of(batch)

    def check(self) -> GuardReport:
        """Project, then raise or warn according to ``raise_on``; the report either way."""
        self.report = project(self.model, self.optimizer, **self.kwargs)
        return apply_policy(self.report, self.raise_on)

    def __enter__(self) -> VRAMGuard:
        self.check()
        dev = self._device()
        if dev is not None:
            torch.cuda.reset_peak_memory_stats(dev)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.comparison = self.compare()
        if self.record is not None:
            append_record(self.record, self.record_entry())

    # ---- after the run
    def _device(self) -> Optional[torch.device]:
        dev = self.kwargs.get("device")
        if dev is None:
            first = next(iter(self.model.parameters()), None)
            dev = first.device if first is not None else None
        dev = torch.device(dev) if dev is not None else None
        if dev is not None and dev.type == "cuda" and torch.cuda.is_available():
            return dev
        return None

    def compare(self) -> Dict[str, Any]:
        """The projection against the measured CUDA peak (measured fields None off CUDA)."""
        assert self.report is not None, "check() first"
        dev = self._device()
        out: Dict[str, Any] = {"projected_tensor_peak": self.report.tensor_peak_bytes,
                               "projected_peak": self.report.peak_bytes,
                               "max_allocated": None, "max_reserved": None, "error": None}
        if dev is not None:
            alloc = torch.cuda.max_memory_allocated(dev)
            out["max_allocated"] = alloc
            out["max_reserved"] = torch.cuda.max_memory_reserved(dev)
            out["device_name"] = torch.cuda.get_device_name(dev)
            if alloc:
                out["error"] = (self.report.tensor_peak_bytes - alloc) / alloc
        return out

    def record_entry(self) -> Dict[str, Any]:
        assert self.report is not None
        model = live.unwrap_model(self.model)
        return {
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "torch": torch.__version__,
            "model_class": type(model).__name__,
            "batch_shape": list(self._batch_shape) if self._batch_shape is not None else None,
            "autocast": str(self.kwargs.get("autocast_dtype")),
            "projection": self.report.to_dict(),
            "measured": self.comparison if self.comparison is not None else self.compare(),
        }


def apply_policy(report: GuardReport, raise_on: str = "oom") -> GuardReport:
    """Raise :class:`VRAMGuardError` when the verdict reaches ``raise_on`` ("tight",
    "likely-oom", "oom" or "never"); otherwise warn (:class:`VRAMGuardWarning`) unless it
    fits. Returns the report."""
    if raise_on not in RAISE_LEVELS:
        raise ValueError(f"raise_on must be one of {', '.join(RAISE_LEVELS)}")
    if report.verdict in VERDICT_ORDER and raise_on != "never" and \
            VERDICT_ORDER.index(report.verdict) >= VERDICT_ORDER.index(raise_on):
        raise VRAMGuardError(f"{report.model_name or 'the model'} does not fit: "
                             + report.text(), report=report)
    if report.verdict != "fits":
        warnings.warn(report.text(), VRAMGuardWarning, stacklevel=3)
    return report


def append_record(path: Path, entry: Dict[str, Any]) -> None:
    """Append one run to a JSON file ``{"version": 1, "records": [...]}``."""
    doc: Dict[str, Any] = {"version": 1, "kind": "preflight-guard-records", "records": []}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict) and isinstance(loaded.get("records"), list):
                doc = loaded
        except json.JSONDecodeError:
            pass
    doc["records"].append(entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1, default=str) + "\n", encoding="utf-8")


def check_fit(model: nn.Module, optimizer: Any = None, *,
              batch_shape: Optional[Sequence[int]] = None, batch: Any = None,
              device: Union[str, torch.device, None] = None, target: Any = None,
              raise_on: str = "oom", **kwargs: Any) -> GuardReport:
    """One-line check: the :class:`GuardReport`; raises :class:`VRAMGuardError` per
    ``raise_on``, warns when tight."""
    guard = VRAMGuard(model, optimizer, batch_shape=batch_shape, batch=batch, device=device,
                      target=target, raise_on=raise_on, **kwargs)
    return guard.check()
