"""Shared by the rules on DeepSpeed engines in code (PF542, PF213, PF235, PF298, PF553, PF611): the names
deepspeed.initialize binds to an engine, parameters used as engines."""

from __future__ import annotations

import ast
from typing import Callable, Optional

from preflight.analysis.context import FileContext
from preflight.sources import ParsedPython


def parent_map(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    out: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            out[child] = node
    return out


def enclosing_scope(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> Optional[ast.AST]:
    above = parents.get(node)
    while above is not None and not isinstance(above, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        above = parents.get(above)
    return above


def engine_names_in(tree: ast.AST) -> set[tuple[str, Optional[ast.AST]]]:
    parents = parent_map(tree)
    return _engine_bindings(tree, lambda node: enclosing_scope(node, parents))


def engine_names(ctx: FileContext, script: ParsedPython) -> set[tuple[str, Optional[ast.AST]]]:
    """Names bound to the engine ``deepspeed.initialize(...)`` returns (``engine, opt, _, _ = ...``,
    ``engine = deepspeed.initialize(...)[0]``), with the function a plain name is local to
    (None for an attribute such as ``self.engine``, read anywhere in the file). Used by PF213 and
    PF553; the same reading as :func:`engine_names_in` on the file's own function index."""
    return _engine_bindings(script.tree, ctx.enclosing_function)


def _engine_bindings(tree: ast.AST, scope_of: Callable[[ast.AST], Optional[ast.AST]]
                     ) -> set[tuple[str, Optional[ast.AST]]]:
    names: set[tuple[str, Optional[ast.AST]]] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        value = node.value.value if isinstance(node.value, ast.Subscript) else node.value
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                and value.func.attr == "initialize" and isinstance(value.func.value, ast.Name)
                and value.func.value.id == "deepspeed"):
            continue
        for target in node.targets:
            first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
            if isinstance(first, ast.Name):
                names.add((first.id, scope_of(node)))
            elif isinstance(first, ast.Attribute):
                names.add((ast.unparse(first), None))
    return names


def engine_params(fn: Optional[ast.AST]) -> set[str]:
    """Parameters of ``fn`` used as a DeepSpeed engine there: both ``p.backward(...)`` and
    ``p.step()`` are called on them (``def train_one_epoch(engine, loader, ...)``)."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return set()
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    called: dict[str, set[str]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in params:
            called.setdefault(node.func.value.id, set()).add(node.func.attr)
    return {p for p, attrs in called.items() if {"backward", "step"} <= attrs}
