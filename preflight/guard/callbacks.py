"""Run the guard from training frameworks: Lightning, the Hugging Face Trainer, Accelerate.

Each runs the guard once, before the first optimizer step, on the objects the framework has
already built (model moved to its device, optimizer created). A job that cannot fit stops
with :class:`VRAMGuardError` before any step runs. The framework is imported when the
callback is created, never at import of this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Union

import torch

from preflight.guard.core import VRAMGuard
from preflight.guard.measure import LossFn


def _lightning_base() -> type:
    try:
        from lightning.pytorch import Callback
    except ImportError:
        from pytorch_lightning import Callback  # type: ignore[assignment]
    return Callback


_LIGHTNING_AUTOCAST = {"bf16-mixed": torch.bfloat16, "16-mixed": torch.float16}


def lightning_callback(*, batch_shape: Optional[Sequence[int]] = None, batch: Any = None,
                       target: Any = None, loss_fn: Optional[LossFn] = None,
                       raise_on: str = "oom", usable_fraction: float = 1.0,
                       record: Union[str, Path, None] = None) -> Any:
    """A Lightning ``Callback`` that runs the guard at ``on_fit_start``.

    The example batch: ``batch``, else ``batch_shape``, else the module's
    ``example_input_array``. The loss: ``loss_fn(module, batch)`` when given, else the
    module's forward output reduced (``training_step`` is not called: it logs and may
    touch the trainer). Autocast follows ``Trainer(precision=...)``.
    """
    base = _lightning_base()

    class VRAMGuardCallback(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.guard: Optional[VRAMGuard] = None

        def on_fit_start(self, trainer: Any, pl_module: Any) -> None:
            example = batch
            if example is None and batch_shape is None:
                example = getattr(pl_module, "example_input_array", None)
            optimizers = list(getattr(trainer, "optimizers", []) or [])
            precision = str(getattr(trainer, "precision", ""))
            self.guard = VRAMGuard(
                pl_module, optimizers[0] if optimizers else None, batch_shape=batch_shape,
                batch=example, device=pl_module.device, target=target,
                autocast_dtype=_LIGHTNING_AUTOCAST.get(precision), loss_fn=loss_fn,
                usable_fraction=usable_fraction, raise_on=raise_on, record=record)
            self.guard.__enter__()

        def on_fit_end(self, trainer: Any, pl_module: Any) -> None:
            if self.guard is not None:
                self.guard.__exit__(None, None, None)

    return VRAMGuardCallback()


def trainer_callback(*, batch_shape: Optional[Sequence[int]] = None, batch: Any = None,
                     target: Any = None, loss_fn: Optional[LossFn] = None,
                     raise_on: str = "oom", usable_fraction: float = 1.0,
                     record: Union[str, Path, None] = None) -> Any:
    """A Hugging Face ``TrainerCallback`` that runs the guard at ``on_train_begin``.

    The example batch: ``batch``, else ``batch_shape`` (per-device batch, sequence length),
    else the first batch of the train dataloader. Autocast follows ``bf16=``/``fp16=``.
    """
    from transformers import TrainerCallback

    class VRAMGuardTrainerCallback(TrainerCallback):
        def __init__(self) -> None:
            self.guard: Optional[VRAMGuard] = None

        def on_train_begin(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            model, optimizer = kw["model"], kw.get("optimizer")
            example = batch
            if example is None and batch_shape is None:
                loader = kw.get("train_dataloader")
                example = _first_batch(loader) if loader is not None else None
            autocast = torch.bfloat16 if getattr(args, "bf16", False) else (
                torch.float16 if getattr(args, "fp16", False) else None)
            first = next(iter(model.parameters()), None)
            self.guard = VRAMGuard(
                model, optimizer, batch_shape=batch_shape, batch=example,
                device=first.device if first is not None else None, target=target,
                autocast_dtype=autocast, loss_fn=loss_fn, usable_fraction=usable_fraction,
                raise_on=raise_on, record=record)
            self.guard.__enter__()

        def on_train_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            if self.guard is not None:
                self.guard.__exit__(None, None, None)

    return VRAMGuardTrainerCallback()


def _first_batch(loader: Any) -> Optional[Dict[str, Any]]:
    try:
        return next(iter(loader))
    except (StopIteration, TypeError):
        return None


def accelerate_guard(accelerator: Any, model: Any, optimizer: Any = None, *,
                     batch_shape: Optional[Sequence[int]] = None, batch: Any = None,
                     target: Any = None, loss_fn: Optional[LossFn] = None,
                     raise_on: str = "oom", usable_fraction: float = 1.0,
                     record: Union[str, Path, None] = None) -> VRAMGuard:
    """A :class:`VRAMGuard` for an Accelerate loop, after ``accelerator.prepare(...)``.

    Unwraps the prepared model and optimizer, takes the device from the accelerator and
    autocast from ``mixed_precision``. Use it as a context manager around the loop, or call
    ``.check()``.
    """
    mp = str(getattr(accelerator, "mixed_precision", "no"))
    autocast = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(mp)
    unwrapped = accelerator.unwrap_model(model)
    return VRAMGuard(unwrapped, optimizer, batch_shape=batch_shape, batch=batch,
                     device=accelerator.device, target=target, autocast_dtype=autocast,
                     loss_fn=loss_fn, usable_fraction=usable_fraction, raise_on=raise_on,
                     record=record)
