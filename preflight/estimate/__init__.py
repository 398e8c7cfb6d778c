"""The VRAM estimator: peak memory per GPU with an interval, a verdict against a GPU, and the
changes that would make a job fit. Pure Python: no torch, no network unless asked.

Public API (used by ``preflight estimate``, ``audit``, the gate and the Hub fit)::

    inp = input_from_plan(plan, {"seq_len": 4096}, arch=resolve_architecture("llama-3-8b"))
    est = estimate(inp)                       # .peak_bytes, .interval_bytes, .phase, .breakdown
    verdict(est, hardware.find("a100-80gb"))  # fits | tight | likely-oom | oom | unknown
    remediate(inp, target)                    # [Remediation(changes, saved_bytes, ...)]
    estimate_json(inp, est, ...)              # the versioned JSON document
"""

from __future__ import annotations

from typing import Any, Optional

from preflight.estimate.inputs import EstimateInput, InputError, input_from_plan, parse_count
from preflight.estimate.model import Estimate, estimate
from preflight.estimate.remedy import Remediation, cheapest_targets, remediate, verdict
from preflight.estimate.report import estimate_json, estimate_text

__all__ = [
    "Estimate", "EstimateInput", "InputError", "Remediation", "cheapest_targets", "estimate",
    "estimate_json", "estimate_text", "input_from_plan", "parse_count", "remediate",
    "resolve_architecture", "verdict",
]


def resolve_architecture(name: str, *, online: bool = False) -> Any:
    """The Architecture for a catalog name, alias or Hub id.

    Order: the built-in catalog; then, for a Hub id (``org/name``), the local Hugging Face
    cache (no network); then, only with ``online=True``, the Hub. Raises InputError with a
    sentence the user can act on.
    """
    try:
        from preflight import architectures
        found = architectures.lookup(name)
    except (ImportError, AttributeError):
        found = None
    if found is not None:
        return found
    if "/" not in name:
        raise InputError(f"model {name!r} is not in the catalog (see the architectures/ "
                         "catalog); pass --params or a Hub id with --online")
    try:
        from preflight import hub
    except ImportError:
        hub = None  # type: ignore[assignment]
    if hub is not None:
        try:
            return hub.resolve_architecture(name, online=online)
        except hub.HubError as exc:
            if online:
                raise InputError(str(exc)) from None
            if isinstance(exc, getattr(hub, "ConfigError", ())):
                # the config was found (cache) but its model type has no reader: say that,
                # not "use --online", which would read the same config again
                raise InputError(f"{exc}; pass --params N to estimate from a parameter count "
                                 "with a guessed Llama shape") from None
        except ImportError:
            pass
    raise InputError(f"model {name!r} is not in the catalog; pass --params or --online")


def target_of(name: Optional[str]) -> Any:
    """A hardware GPU or Instance by name (InputError when unknown)."""
    if not name:
        return None
    try:
        from preflight import hardware
        found = hardware.find(name)
    except (ImportError, AttributeError):
        raise InputError("the hardware catalog is not available") from None
    if found is None:
        raise InputError(hardware.unknown_message(name))
    return found
