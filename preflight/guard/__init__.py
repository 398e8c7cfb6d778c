"""The runtime guard: does this live training job fit on the GPU, before its first step?

The one part of preflight that imports torch, and only when a guard object is used::

    from preflight.guard import VRAMGuard, check_fit

    check_fit(model, optimizer, batch_shape=(8, 2048), target="a100-80gb")

Importing this package costs nothing: torch is imported on first use of any name below.
"""

from __future__ import annotations

from typing import Any

from preflight.guard.errors import VRAMGuardError, VRAMGuardWarning

__all__ = [
    "GuardReport", "VRAMGuard", "VRAMGuardError", "VRAMGuardWarning", "accelerate_guard",
    "apply_policy", "check_fit", "lightning_callback", "project", "trainer_callback",
]

_LAZY = {
    "GuardReport": "preflight.guard.core", "VRAMGuard": "preflight.guard.core",
    "check_fit": "preflight.guard.core", "project": "preflight.guard.core",
    "apply_policy": "preflight.guard.core",
    "lightning_callback": "preflight.guard.callbacks",
    "trainer_callback": "preflight.guard.callbacks",
    "accelerate_guard": "preflight.guard.callbacks",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'preflight.guard' has no attribute {name!r}")
    try:
        import torch  # noqa: F401
    except ImportError:
        raise ImportError("the runtime guard needs PyTorch: pip install "
                          "'preflight-audit[torch]'") from None
    import importlib

    return getattr(importlib.import_module(module), name)
