"""Shared by the rules on composed configs read in code (PF577, PF578, PF596): the names that hold a config,
the attribute chain read from it, the value at a key path."""

from __future__ import annotations

import ast
from typing import Any, Optional


def base_name(node: ast.AST) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def config_names(fn: ast.AST) -> set[str]:
    """Names that hold a composed config in a function: the ``@hydra.main`` function's parameter,
    ``cfg = compose(...)``, ``cfg = OmegaConf.load(...)``/``create``/``merge``."""
    names: set[str] = set()
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.args.args and any(
            "hydra" in ast.unparse(d) and "main" in ast.unparse(d) for d in fn.decorator_list):
        names.add(fn.args.args[0].arg)
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            callee = base_name(node.value.func)
            owner = node.value.func.value if isinstance(node.value.func, ast.Attribute) else None
            if callee == "compose" or (callee in ("load", "create", "merge") and isinstance(owner, ast.Name)
                                        and owner.id == "OmegaConf"):
                names.add(node.targets[0].id)
    return names


def attribute_chain(node: ast.AST, roots: set[str]) -> Optional[tuple[str, ...]]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in roots and parts:
        return tuple(reversed(parts))
    return None


def config_at(config: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if not isinstance(config, dict) or part not in config:
            return None
        config = config[part]
    return config
