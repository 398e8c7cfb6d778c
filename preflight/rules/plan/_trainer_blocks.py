"""Shared by the rules that read a Lightning Trainer from a Hydra config (PF405, PF209)."""

from __future__ import annotations

from typing import Any

from preflight.analysis.accumulation import LIGHTNING_TRAINERS


def lightning_target(value: Any) -> bool:
    return isinstance(value, str) and value in LIGHTNING_TRAINERS


def trainer_blocks(data: Any, prefix: tuple[str, ...] = (), depth: int = 0) -> list[tuple[tuple[str, ...], dict]]:
    """Mappings of a config whose ``_target_`` is Lightning's Trainer (at any depth up to 4)."""
    out: list[tuple[tuple[str, ...], dict]] = []
    if not isinstance(data, dict) or depth > 4:
        return out
    if lightning_target(data.get("_target_")):
        out.append((prefix, data))
    for key, value in data.items():
        if isinstance(value, dict):
            out.extend(trainer_blocks(value, (*prefix, str(key)), depth + 1))
    return out
