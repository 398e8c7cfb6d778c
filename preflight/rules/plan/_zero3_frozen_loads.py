"""Code side of PF148: models loaded with ``from_pretrained`` after ``Accelerator()`` that are frozen and
never handed to ``accelerator.prepare`` (shared with bench/bugs/det118_only_rules.py)."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from preflight.analysis.syntax import dotted_name

# classes whose ``from_pretrained`` loads no weights
_NOT_MODELS = ("Tokenizer", "TokenizerFast", "Scheduler", "Processor", "Config", "FeatureExtractor", "Pipeline",
               "GenerationConfig", "ImageProcessor")
# a ``with`` that turns zero.Init off (diffusers' ``deepspeed_zero_init_disabled_context_manager()``,
# ``plugin.zero3_init_context_manager(enable=False)``) or a ``ContextManagers([...])`` of such
_DISABLING = ("zero3_init_context_manager", "zero_init", "ContextManagers")


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``scope`` outside its nested functions and classes."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def _disabled_regions(scope: ast.AST) -> list[tuple[int, int]]:
    out = []
    for node in _own_nodes(scope):
        if isinstance(node, (ast.With, ast.AsyncWith)) \
                and any(m in ast.unparse(item.context_expr) for item in node.items for m in _DISABLING):
            out.append((node.lineno, node.end_lineno or node.lineno))
    return out


def _prepared(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("prepare", "prepare_model", "initialize"):
            for arg in [*node.args, *(kw.value for kw in node.keywords)]:
                names |= {dotted_name(n) or "" for n in ast.walk(arg) if isinstance(n, (ast.Name, ast.Attribute))}
    return names


def _frozen(scope: ast.AST, name: str, after: int, rebound: list[int]) -> Optional[ast.Call]:
    """``name.requires_grad_(False)`` in ``scope`` after line ``after`` and before ``name`` is bound again
    (a later reload of the same name, for a validation pipeline, is another model)."""
    until = min([line for line in rebound if line > after], default=10 ** 9)
    for node in ast.walk(scope):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "requires_grad_" and dotted_name(node.func.value) == name \
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value is False \
                and after < node.lineno < until:
            return node
    return None


def frozen_unprepared_loads(tree: ast.AST) -> Iterator[tuple[ast.Call, str, ast.Call, ast.Call]]:
    """(load, target, the Accelerator() before it, the freeze): a model loaded after ``Accelerator()`` in the
    same function, outside a zero.Init-disabling ``with``, frozen, and never prepared."""
    prepared = _prepared(tree)
    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]
    for scope in scopes:
        own = list(_own_nodes(scope))
        accel = [n for n in own if isinstance(n, ast.Call) and (dotted_name(n.func) or "").endswith("Accelerator")]
        if not accel:
            continue
        first = min(accel, key=lambda c: c.lineno)
        regions = _disabled_regions(scope)
        bound: dict[str, list[int]] = {}
        for node in own:
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    bound.setdefault(dotted_name(t) or "", []).append(node.lineno)
        for node in own:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "from_pretrained"):
                continue
            load, func = node.value, node.value.func
            owner = (dotted_name(func.value) or "").rsplit(".", 1)[-1]
            target = dotted_name(node.targets[0]) or ""
            if not owner or not target or any(owner.endswith(s) for s in _NOT_MODELS) or load.lineno <= first.lineno:
                continue
            if any(lo <= load.lineno <= hi for lo, hi in regions) or target in prepared:
                continue
            freeze = _frozen(scope, target, load.lineno, bound.get(target, []))
            if freeze is not None:
                yield load, target, first, freeze
