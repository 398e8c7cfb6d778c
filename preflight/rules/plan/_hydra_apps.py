"""The ``@hydra.main`` applications of a job, as the Hydra rules read them."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Iterator, Optional

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


def partial_hydra_main_apps(pctx: PlanContext) -> Iterator[Any]:
    """Each ``@hydra.main`` app that could not be composed because config group options are missing from the
    job, composed without them (``Composed.dropped``: :mod:`preflight.adapters.hydra_partial`). Its config lacks
    what the missing files hold: a rule reads only values those options cannot set (``dropped_may_set``)."""
    try:
        from preflight.adapters.hydra_partial import partial_compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return
    for comp in partial_compositions(pctx.project):
        if comp.app.script is not None and comp.app.how == "@hydra.main":
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


def assigned_names(tree: ast.AST, main_fn: Optional[ast.AST] = None) -> set[str]:
    """Attribute and string-key names the script assigns on any object: ``x.name = ...``,
    ``x["name"] = ...``, ``setattr(x, "name", ...)``, outside the ``@hydra.main`` function
    (``main_fn``), whose assignments count only before a read (``_filled_at_runtime``)."""
    names: set[str] = set()
    skip = {id(n) for n in ast.walk(main_fn)} if main_fn is not None else set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str):
            names.add(node.args[1].value)
        for target in targets:
            if isinstance(target, ast.Attribute):
                names.add(target.attr)
            elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) \
                    and isinstance(target.slice.value, str):
                names.add(target.slice.value)
    return names
