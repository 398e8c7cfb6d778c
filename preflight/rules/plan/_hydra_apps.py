"""The ``@hydra.main`` applications of a job, as the Hydra rules read them."""

from __future__ import annotations

from typing import Any, Iterator

from preflight.plan_rules import PlanContext


def hydra_main_apps(pctx: PlanContext) -> Iterator[Any]:
    """Each composed config of a ``@hydra.main`` script of the job (``adapters.hydra.Composed``:
    its ``app.script`` is set)."""
    try:
        from preflight.adapters.hydra import Composed, compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return
    for comp in compositions(pctx.project):
        if isinstance(comp, Composed) and comp.app.script is not None and comp.app.how == "@hydra.main":
            yield comp
