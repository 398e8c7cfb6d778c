"""``autocast(enabled=E)`` in a function nested inside one the configuration object reaches, with ``E`` a
name the enclosing function binds from the object (a closure; read by
:mod:`preflight.adapters.config_object_reads` with :func:`preflight.adapters.config_object_autocast.autocast_switch`,
nothing imported or executed).

facebookresearch/ijepa @ 52c1ae9 ``src/train.py:74`` ``use_bfloat16 = args['meta']['use_bfloat16']`` in
``main(args)``, then inside its loop ``def train_step():`` (``:289``) runs ``with torch.cuda.amp.autocast(
dtype=torch.bfloat16, enabled=use_bfloat16):`` (``:316``); ``meta: use_bfloat16: true`` in
``configs/in1k_vith14_ep300.yaml:40``.

A name the nested function binds itself (a parameter, an assignment, a ``for`` or ``with`` target, a
``global``/``nonlocal``) is its own, not the enclosing one's: the call is not read. Only a nested ``def``
whose every enclosing ``if`` in the outer function is decided to run it, and a call whose every ``if`` in the nested
one is too (``runs``), is read: ``if os.environ.get(...): with autocast(...)`` is not.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Callable

from preflight.analysis.syntax import own_nodes_in_order


def _bound_in(fn: ast.AST) -> set[str]:
    """The names ``fn`` (a nested function, its own nested ones included) binds itself."""
    out: set[str] = set()
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = fn.args
        out |= {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
        out |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not fn:
            out.add(node.name)
    return out


def closure_calls(fn: ast.AST, nodes: list[ast.AST], runs: Callable[[ast.AST, dict[int, ast.AST]], bool],
                  depth: int = 0) -> Iterator[ast.Call]:
    """The calls inside the functions nested in ``fn`` (``nodes``: its own nodes) whose ``enabled=`` names
    no name the nested function binds itself, and whose every enclosing ``if`` (in the outer function and
    in the nested one) ``runs(node, parents)`` says is decided to run them."""
    if depth > 3 or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return  # a module's functions are no closures
    parents = {id(child): node for node in [fn, *nodes] for child in ast.iter_child_nodes(node)}
    nested = [child for parent in [fn, *nodes] for child in ast.iter_child_nodes(parent)
              if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for node in nested:
        if not runs(node, parents):
            continue
        own = own_nodes_in_order(node)
        inner_parents = {id(child): n for n in [node, *own] for child in ast.iter_child_nodes(n)}
        bound = _bound_in(node)
        for inner in own:
            if not isinstance(inner, ast.Call) or not runs(inner, inner_parents):
                continue
            enabled = next((k.value for k in inner.keywords if k.arg == "enabled"), None)
            if enabled is None:
                continue
            if any(isinstance(n, ast.Name) and n.id in bound for n in ast.walk(enabled)):
                continue
            yield inner
        yield from closure_calls(node, own, runs, depth + 1)
