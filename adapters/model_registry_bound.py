"""A registry entry bound to a local name first and called after: ``cls = REG[key]`` then ``cls(...)``.

The two-step form of :mod:`preflight.adapters.model_registry`'s ``REG[key](...)``
(NUS-HPC-AI-Lab/OpenDiT @ 5ca1c46 ``train.py:148-168``: ``if "DiT" in args.model: ... model_class =
DiT_models[args.model]`` / ``elif "Latte" in args.model: model_class = Latte_models[args.model]`` /
``else: raise``, then ``model = (model_class(enable_flashattn=..., dtype=dtype, **model_config)
.to(device).to(dtype))``; the same two lines in many scripts: ``model_cls = STUDENT_MODELS[args.model];
model = model_cls(input_dim=49, ...)``, ``model_fn = model_dict[args.model]; model = model_fn(num_classes=10)``).

Read, never imported: the called name is a plain local of the function the call sits in (no parameter,
no ``global``); every binding of it in that function is an ``=`` statement, and exactly one of them runs,
decided by the ``if``/``elif``/``else`` tests around it (each test decided by the script index: the
launch line, declared defaults, code), the others decided not to run; that one binds ``REG[key]``
(a subscript of a plain name) and comes before the call. Anything else (a test not decided, two bindings
that may run, a binding in a loop, ``try`` or ``with``, one after the call) gives nothing.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.call_splat import own_nodes

_BLOCKS = (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith)


def _path_to(stmts: list[ast.stmt], target: ast.AST) -> Optional[list[tuple[ast.expr, bool]]]:
    """The ``if`` tests around ``target`` in these statements (outermost first, with True for the
    body and False for the ``else``/``elif`` side); None when it is not found here or sits in
    another compound statement (a loop, ``try``, ``with``, a nested ``def``)."""
    for stmt in stmts:
        if stmt is target:
            return []
        if isinstance(stmt, ast.If):
            for side, body in ((True, stmt.body), (False, stmt.orelse)):
                inner = _path_to(body, target)
                if inner is not None:
                    return [(stmt.test, side), *inner]
        elif isinstance(stmt, (*_BLOCKS, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and any(n is target for n in ast.walk(stmt)):
            return None
    return None


def _enclosing(tree: ast.AST, call: ast.Call) -> Optional[ast.AST]:
    """The innermost function around the call, else the module."""
    best: ast.AST = tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not best \
                and any(n is call for n in ast.walk(node)) \
                and (best is tree or any(n is node for n in ast.walk(best))):
            best = node
    return best


def bound_entry(idx: Any, tree: ast.AST, call: ast.Call) -> Optional[ast.Subscript]:
    """``REG[key]`` the called local name holds when the call runs (module docstring), else None."""
    func = call.func
    if not isinstance(func, ast.Name) or not any(isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name)
                                                 for v in idx.assigns.get(func.id, [])):
        return None
    scope = _enclosing(tree, call)
    if scope is None:
        return None
    name = func.id
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        params = scope.args
        if any(a.arg == name for a in (*params.posonlyargs, *params.args, *params.kwonlyargs,
                                         *[p for p in (params.vararg, params.kwarg) if p is not None])):
            return None
    body = getattr(scope, "body", [])
    taken: list[ast.Assign] = []
    for node in own_nodes(scope):
        if isinstance(node, ast.Global) and name in node.names:
            return None
        binds = isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.For, ast.AsyncFor,
                                  ast.withitem, ast.comprehension)) and any(
            isinstance(t, ast.Name) and t.id == name
            for t in ast.walk(getattr(node, "target", None) or getattr(node, "optional_vars", None) or ast.Pass()))
        if binds:
            return None
        if not isinstance(node, ast.Assign) or not any(isinstance(t, ast.Name) and t.id == name
                                                       for t in node.targets):
            continue
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return None
        guards = _path_to(body, node)
        if guards is None:
            return None
        runs: Optional[bool] = True
        for test, side in guards:
            value = idx.truth(test)
            if value is None:
                runs = None
            elif value != side:
                runs = False
                break
        if runs is None:
            return None
        if runs:
            taken.append(node)
    if len(taken) != 1:
        return None
    value = taken[0].value
    if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)) \
            or (taken[0].lineno, taken[0].col_offset) >= (call.lineno, call.col_offset):
        return None
    return value
