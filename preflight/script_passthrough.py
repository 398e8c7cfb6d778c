"""A rebinding of the parsed options through a function that hands its argument back.

epfml/llm-baselines @ c8a5105 ``src/main.py:51-52``::

    distributed_backend = distributed.make_backend_from_args(args)
    args = distributed_backend.get_adjusted_args_for_process(args)

Every class of ``src/distributed/`` defining that method returns the namespace it was given
(``single.py:17-18`` ``return args``; ``ddp.py:20-35`` sets ``args.acc_steps``, ``args.batch_size``,
``args.device``, ``args.seed`` and ``args.data_seed``, then ``return args``; ``backend.py`` raises
``NotImplementedError``). After the statement ``args`` is the same namespace: its other options keep their
values (``args.opt`` default ``adamw`` -> ``torch.optim.AdamW`` at ``src/main.py:130-143``), and those a
definition assigns are unknown (the backend is chosen at run time).

Read (never run): for ``name = f(..., name, ...)`` or ``name = obj.m(..., name, ...)``, the definitions of
``f``/``m``: the script's own functions and methods of that name, and the top-level functions and class
methods of that name in the local modules the script imports (three imports deep). A definition whose body is
only ``raise NotImplementedError`` (an abstract method) is left out; every other one must end in
``return <the parameter that receives name>`` and return nothing else, and at least one must. The
attributes any of them assigns on that parameter are written by a helper (unknown). A callee none is found
for, or one that builds and returns something else, leaves the name unfollowed, as before.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

_MAX_BYTES = 500_000


def _abstract(fn: Any) -> bool:
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.dump(body[0])


def _own_returns(fn: Any) -> list[ast.Return]:
    out: list[ast.Return] = []
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue  # a nested function's return is not this one's
        if isinstance(node, ast.Return):
            out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _receiving(fn: Any, call: ast.Call, name: str, method: bool) -> Optional[str]:
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if method:
        if not positional or positional[0] not in ("self", "cls"):
            return None
        positional = positional[1:]
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            return None
        if isinstance(arg, ast.Name) and arg.id == name:
            return positional[i] if i < len(positional) else None
    for kw in call.keywords:
        if kw.arg is not None and isinstance(kw.value, ast.Name) and kw.value.id == name:
            return kw.arg
    return None


def _candidates(idx: Any, call: ast.Call) -> list[tuple[Any, bool]]:
    """(def, is a method) for each definition the call may run."""
    func = call.func
    if isinstance(func, ast.Name):
        own = [f for f in idx.functions.get(func.id, []) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if own:
            return [(f, False) for f in own]
        from preflight.script_helper_writes import local_module_function

        found = local_module_function(idx, idx.qualify(func.id) or "") if func.id in idx.imports else None
        return [(found[0], False)] if found is not None else []
    if not isinstance(func, ast.Attribute):
        return []
    wanted = func.attr
    if isinstance(func.value, ast.Name):
        # an object whose class a registry table picks by a key the launch line decides (preflight/registry_pick.py)
        from preflight.registry_pick import picked_methods

        picked = picked_methods(idx, func.value.id, wanted)
        if picked is not None:
            return [(f, True) for f in picked]
    trees: list[ast.AST] = [idx.script.tree]
    path = idx.script.source.path
    if path is not None:
        from preflight.adapters.pytorch_local import _imported_up
        from preflight.local_trees import parse_file

        for module in _imported_up(idx.script.tree, Path(str(path)).resolve().parent, None):
            try:
                if module.stat().st_size <= _MAX_BYTES:
                    trees.append(parse_file(module))
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                continue
    out: list[tuple[Any, bool]] = []
    for tree in trees:
        for klass in ast.walk(tree):
            if isinstance(klass, ast.ClassDef):
                out.extend((f, True) for f in klass.body
                           if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name == wanted)
    return out


def passthrough_writes(idx: Any, value: ast.AST, name: str) -> Optional[set[str]]:
    """For ``name = value``: the attributes the callee may assign on ``name`` when every definition of the
    callee hands ``name`` back (the module docstring), else None."""
    if not isinstance(value, ast.Call):
        return None
    if not any(isinstance(a, ast.Name) and a.id == name for a in value.args) and \
            not any(isinstance(k.value, ast.Name) and k.value.id == name for k in value.keywords):
        return None
    cache: dict[int, Optional[set[str]]] = idx.__dict__.setdefault("_passthrough_cache", {})
    if id(value) in cache:
        return cache[id(value)]
    cache[id(value)] = None  # a re-entrant question while this one is answered: not followed
    from preflight.script_helper_writes import _written

    written: set[str] = set()
    concrete = 0
    for fn, method in _candidates(idx, value):
        if _abstract(fn):
            continue
        param = _receiving(fn, value, name, method)
        returns = _own_returns(fn)
        if param is None or not returns or not fn.body or not isinstance(fn.body[-1], ast.Return) or not all(
                isinstance(r.value, ast.Name) and r.value.id == param for r in returns):
            return None
        concrete += 1
        written |= _written(fn, param)
    cache[id(value)] = written if concrete else None
    return cache[id(value)]
