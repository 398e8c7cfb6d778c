"""Shared by PF348 and PF364: scripts that resize token embeddings under ZeRO-3 on a pinned transformers."""

from __future__ import annotations

from typing import Any, Iterator

from preflight.plan_rules import PlanContext
from preflight.sources import ParsedPython


def zero3_resizing_scripts(pctx: PlanContext) -> Iterator[tuple[Any, ParsedPython, Any]]:
    """(the plan's ZeRO-3 fact, a script calling ``resize_token_embeddings``, its pinned transformers version)."""
    zero3 = next((f for f in pctx.plan.facts("dist.sharding") if f.value == "zero3"), None)
    if zero3 is None:
        return
    for script in pctx.scripts:
        if "resize_token_embeddings" not in script.source.text:
            continue
        version = pctx.version("transformers", script)
        if version is not None and version.how == "pinned":
            yield zero3, script, version
