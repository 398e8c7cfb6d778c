"""Shared by the rules on CUDA_VISIBLE_DEVICES (PF230, PF233)."""

from __future__ import annotations

from typing import Optional


def visible_device_count(value: str) -> Optional[int]:
    """How many devices a literal ``CUDA_VISIBLE_DEVICES`` value names (None: not literal)."""
    if not value or any(ch in value for ch in "$`*"):
        return None
    ids = [x.strip() for x in value.split(",") if x.strip()]
    if not ids or not all(x.isdigit() or x.startswith(("GPU-", "MIG-")) for x in ids):
        return None
    if any(x.isdigit() and int(x) < 0 for x in ids):
        return None
    return len(ids)
