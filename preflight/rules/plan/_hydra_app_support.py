"""Helpers of the plan rules that read an ``@hydra.main`` app's code against its composed config (PF529, PF544),
and the configs a Hydra composition loaded (PF572, PF589)."""

from __future__ import annotations

import ast
from typing import Any, Iterator, Optional


def config_chain(node: ast.AST, root: str) -> Optional[tuple[str, ...]]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == root and parts:
        return tuple(reversed(parts))
    return None


def lookup(config: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(config, dict) or part not in config:
            return None
        config = config[part]
    return config


def hydra_main_function(script: Any, line: Optional[int]) -> Optional[ast.FunctionDef]:
    for node in ast.walk(script.tree):
        if isinstance(node, ast.FunctionDef) and node.args.args and any(
                "hydra" in ast.unparse(d) and "main" in ast.unparse(d) for d in node.decorator_list) \
                and (line is None or node.lineno <= line + len(node.decorator_list) + 1):
            return node
    return None


def hydra_main_apps(project: Any) -> Iterator[tuple[Any, Any, ast.FunctionDef]]:
    """(composition, script, decorated function) of every ``@hydra.main`` app whose config
    preflight composed and whose function it can find."""
    try:
        from preflight.adapters.hydra import Composed, compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return
    for comp in compositions(project):
        if not isinstance(comp, Composed) or comp.app.script is None or comp.app.how != "@hydra.main":
            continue
        fn = hydra_main_function(comp.app.script, comp.app.line)
        if fn is not None:
            yield comp, comp.app.script, fn


def config_files(pctx: Any) -> dict[Any, Any]:
    """Every config of the plan by path, with the files each Hydra composition loaded (group files
    the plan's own config list does not hold), for rules that read keys in any loaded file."""
    configs = {cfg.path: cfg for cfg in pctx.configs}
    try:
        from preflight.adapters.hydra import Composed, compositions
    except ImportError:  # pragma: no cover - the adapter ships with preflight
        return configs
    for comp in compositions(pctx.project):
        if isinstance(comp, Composed):
            for loaded in comp.files.values():
                configs.setdefault(loaded.path, loaded)
    return configs


def targeted_tops(apps: list[Any]) -> dict[str, tuple[Any, dict[str, Any], tuple[str, ...]]]:
    """The top-level config nodes with a ``_target_`` of the apps' compositions, by key (the first app's
    node when several apps compose one key): (composition, node, its key path)."""
    tops: dict[str, tuple[Any, dict[str, Any], tuple[str, ...]]] = {}
    for comp, _, _ in apps:
        for key, node in comp.config.items():
            if isinstance(node, dict) and "_target_" in node:
                tops.setdefault(key, (comp, node, (key,)))
    return tops
