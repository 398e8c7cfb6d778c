"""Which of several DataLoaders feeds the backward pass.

A script may build more than one loader that is not an evaluation loader: an RL loop iterates
a prompt loader, generates completions into a replay buffer, then iterates a second loader over
that buffer and back-propagates each of its batches (open-thought/tiny-grpo train.py:239-245
and :317-351 @ eafedd78: ``DataLoader(prompts, batch_size=rollouts_per_step)`` around
``DataLoader(replay_buffer, batch_size=train_batch_size)``; the loss is computed on batches of
the second). The loader whose ``for`` loop is the innermost loop around a ``backward()`` call is
the one whose batches train; an outer loader's batch size counts prompts, not training samples.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

# the callables a loop commonly wraps its loader in: ``enumerate(loader)``, ``tqdm(loader)``
_WRAPPERS = frozenset({"enumerate", "tqdm", "iter", "zip", "islice", "cycle"})


def _iterated(expr: ast.expr, names: set[str], depth: int = 0) -> Optional[str]:
    """The loader name a ``for`` loop's iterable reads: ``loader``, ``enumerate(loader)``,
    ``tqdm(enumerate(loader), ...)``; None for anything else."""
    if isinstance(expr, ast.Name):
        return expr.id if expr.id in names else None
    if depth < 3 and isinstance(expr, ast.Call) and expr.args:
        f = expr.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
        if name in _WRAPPERS:
            for arg in expr.args:
                found = _iterated(arg, names, depth + 1)
                if found is not None:
                    return found
    return None


def _is_backward(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward"


def _innermost(tree: ast.AST, names: set[str]) -> set[str]:
    """The loader names whose loop is the innermost loader loop around some ``backward()``."""
    found: set[str] = set()

    def visit(node: ast.AST, loader: Optional[str]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            loader = None  # a nested function runs where it is called, not in this loop
        if isinstance(node, (ast.For, ast.AsyncFor)):
            visit(node.iter, loader)
            inner = _iterated(node.iter, names) or loader
            for stmt in node.body + node.orelse:
                visit(stmt, inner)
            return
        if _is_backward(node) and loader is not None:
            found.add(loader)
        for child in ast.iter_child_nodes(node):
            visit(child, loader)

    visit(tree, None)
    return found


def training_loaders(sites: list[Any]) -> list[Any]:
    """Of the candidate loader sites, those whose loop back-propagates, when that picks some
    but not all of them (same script, each assigned to a plain name); else ``sites`` as given."""
    if len(sites) < 2:
        return sites
    scripts = {id(s.script) for s in sites}
    if len(scripts) != 1 or any(not s.target or "." in s.target for s in sites):
        return sites
    names = {s.target for s in sites}
    inner = _innermost(sites[0].script.tree, names)
    kept = [s for s in sites if s.target in inner]
    return kept if kept and len(kept) < len(sites) else sites
