"""The guard's error and warning (no torch import, so callers can catch them cheaply)."""

from __future__ import annotations

from typing import Any, Optional


class VRAMGuardError(RuntimeError):
    """The job cannot fit on the target (``report`` holds the projection and the
    remediations), or the guard was given something it cannot use."""

    def __init__(self, message: str, *, report: Optional[Any] = None) -> None:
        super().__init__(message)
        self.report = report


class VRAMGuardWarning(UserWarning):
    """The job is tight or likely out of memory on the target, but may fit."""
