"""The ``@hydra.main`` applications of a job, as the Hydra rules read them."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from preflight.plan_rules import PlanContext

# words of a script that parses its command line itself: its tokens are not Hydra overrides (PF561, PF158)
OWN_PARSING = ("sys.argv", "parse_known_args", "parse_args", "fire.Fire", "click", "typer", "absl")


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


def launched_hydra_main_apps(pctx: PlanContext) -> Iterator[Any]:
    """Each ``@hydra.main`` application (``adapters.hydra.HydraApp``, its ``script`` set) of a job launched with a
    command line; nothing for a job without one."""
    if not pctx.project.argv:
        return
    try:
        from preflight.adapters.hydra import find_apps
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return
    for app in find_apps(pctx.project):
        if app.script is not None and app.how == "@hydra.main":
            yield app


def read_hydra_config(path: Path) -> Any:
    """preflight's reading of one Hydra config file (defaults list and body), None when it cannot be read."""
    try:
        from preflight.adapters.hydra_compose import ComposeError, read_config_file
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return None
    try:
        return read_config_file(path)
    except (ComposeError, OSError, ValueError):
        return None
