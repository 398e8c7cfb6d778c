"""``obj.attr`` where the script stores the attribute itself on an object it built (asked by the
script index's resolver, :mod:`preflight.script_index`).

NVlabs/stylegan3 @ c233a91 ``train.py``: ``main(**kwargs)`` is a click command (``:130``
``--gpus``); ``opts = dnnlib.EasyDict(kwargs)`` (``:187``), ``c = dnnlib.EasyDict()`` (``:189``),
``c.num_gpus = opts.gpus`` (``:205``), then ``launch_training(c=c, ...)`` whose
``torch.multiprocessing.spawn(..., nprocs=c.num_gpus)`` (``:98``) starts that many processes.
Three readings, each exact or silent:

- ``c.attr`` with ``c`` bound, in the function around the use (or at module level), only to calls
  (objects the script builds), and exactly one ``c.attr = value`` in that function before the use,
  and no other store of ``.attr`` on that name anywhere in the file: that value.
- ``c.attr`` with ``c`` a parameter of the function around the use that it never rebinds: every
  call of that function in the file passes a plain name for it, from the same function, and the
  reading above holds there at the call.
- ``opts.attr`` with ``opts`` bound only to ``X(kwargs)``/``X(**kwargs)`` of the ``**kwargs`` of a
  command-line entry function (click options, ``fire.Fire``): the job's option ``attr``.
- ``params.attr`` with ``params`` bound only to calls in the function around the use, which calls
  ``params.update(vars(args))`` once before the use, ``args`` the parsed options (the icefall recipe
  idiom, lifeiteng/vall-e @ 9c69096 ``valle/bin/trainer.py:861-862`` ``params = get_params();
  params.update(vars(args))``, then ``if params.optimizer_name == "ScaledAdam":`` at ``:923``), and no
  ``params.attr = ...`` anywhere: the job's option ``attr`` when the parser declares it.

Nothing is executed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional


def _around(idx: Any, line: Optional[int]) -> Optional[ast.FunctionDef]:
    if line is None:
        return None
    defs = [f for fs in idx.functions.values() for f in fs if isinstance(f, ast.FunctionDef)
            and f.lineno <= line <= (getattr(f, "end_lineno", None) or f.lineno)]
    return max(defs, key=lambda f: f.lineno) if defs else None


_TREES: dict[int, tuple[ast.AST, dict[tuple[str, str], list[ast.Assign]]]] = {}
_MAX_TREES = 256


def _stores_of(tree: ast.AST) -> dict[tuple[str, str], list[ast.Assign]]:
    """(name, attr) -> every ``name.attr = value`` of the file; one walk per tree."""
    held = _TREES.get(id(tree))
    if held is not None and held[0] is tree:
        return held[1]
    out: dict[tuple[str, str], list[ast.Assign]] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute) \
                and isinstance(n.targets[0].value, ast.Name):
            out.setdefault((n.targets[0].value.id, n.targets[0].attr), []).append(n)
    if len(_TREES) >= _MAX_TREES:
        _TREES.clear()
    _TREES[id(tree)] = (tree, out)
    return out


def _bindings(scope: ast.AST, name: str) -> Optional[list[ast.AST]]:
    """The values ``name`` is bound to in ``scope``'s own body (None when bound some way other
    than a plain ``name = value``, or declared global/nonlocal there)."""
    from preflight.script_bindings import _scope_bindings

    binds, blocked = _scope_bindings(scope)
    if name in blocked:
        return None
    values: list[ast.AST] = []
    for node in binds.get(name, []):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            return None
        values.append(node.value)
    return values


def _inside(node: ast.AST, scope: ast.AST) -> bool:
    """``node`` lies in ``scope``'s own body (not in a function nested in it)."""
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    return scope.lineno <= node.lineno <= (scope.end_lineno or scope.lineno)  # type: ignore[attr-defined]


def _stored_here(idx: Any, scope: ast.AST, name: str, attr: str, line: int, depth: int) -> Any:
    stores = _stores_of(idx.script.tree).get((name, attr), [])
    if len(stores) != 1 or stores[0].lineno >= line or not _inside(stores[0], scope):
        return None
    bound = _bindings(scope, name)
    if not bound or not all(isinstance(b, ast.Call) for b in bound):
        return None
    return idx.resolve(stores[0].value, depth + 1)


def _entry_options(idx: Any, scope: ast.AST, name: str, attr: str) -> Any:
    """``opts = EasyDict(kwargs)`` of the ``**kwargs`` of a command-line entry: the option."""
    if idx.options is None or not isinstance(scope, ast.FunctionDef) or scope.args.kwarg is None:
        return None
    kwargs = scope.args.kwarg.arg
    if (name, attr) in _stores_of(idx.script.tree):
        return None
    bound = _bindings(scope, name)
    if not bound:
        return None
    for value in bound:
        if not (isinstance(value, ast.Call) and len(value.args) + len(value.keywords) == 1):
            return None
        arg = value.args[0] if value.args else value.keywords[0].value
        if value.keywords and value.keywords[0].arg is not None:
            return None
        if not (isinstance(arg, ast.Name) and arg.id == kwargs):
            return None
    if not idx._cli_entry(scope):
        return None
    got = idx.options(attr)
    kind = _click_type(scope, attr)
    if got is not None and isinstance(got.value, str) and kind is not None:
        try:
            value = kind(got.value)
        except ValueError:
            return None
        return type(got)(value, got.kind, got.line, got.key, got.detail, got.cap)
    return got


def _updated_from_options(idx: Any, fn: ast.FunctionDef, name: str, attr: str, line: int) -> Any:
    """``params.update(vars(args))`` once in ``fn`` before ``line``: the option ``attr`` (see the doc)."""
    if idx.options is None or (name, attr) in _stores_of(idx.script.tree):
        return None
    updates = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and n.func.attr in ("update", "__setattr__", "setdefault") and isinstance(n.func.value, ast.Name)
               and n.func.value.id == name]
    if len(updates) != 1 or updates[0].lineno >= line or len(updates[0].args) != 1 or updates[0].keywords:
        return None
    arg = updates[0].args[0]
    if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "vars"
            and len(arg.args) == 1 and isinstance(arg.args[0], ast.Name)):
        return None
    source = arg.args[0].id
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    if not (source in idx.parsed_args or idx._namespace(source) or source in params):
        return None
    bound = _bindings(fn, name)
    if not bound or not all(isinstance(b, ast.Call) for b in bound):
        return None
    return idx.argument(attr, line) if idx.arguments else idx.options(attr)


_CLICK_TYPES = {"int": int, "INT": int, "IntRange": int, "float": float, "FLOAT": float, "FloatRange": float}


def _click_type(fn: ast.FunctionDef, attr: str) -> Any:
    """``int``/``float`` when the entry's ``@click.option("--attr", type=int|click.IntRange(...))``
    converts the option's text (click hands the function the converted value)."""
    for deco in fn.decorator_list:
        if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "option"):
            continue
        flags = [a.value for a in deco.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if not any(f.split("/")[0].lstrip("-").replace("-", "_") == attr for f in flags if f.startswith("--")):
            continue
        kind = next((k.value for k in deco.keywords if k.arg == "type"), None)
        if isinstance(kind, ast.Call):
            kind = kind.func
        last = kind.attr if isinstance(kind, ast.Attribute) else kind.id if isinstance(kind, ast.Name) else None
        return _CLICK_TYPES.get(last or "")
    return None


def stored_attribute(idx: Any, expr: ast.Attribute, depth: int) -> Any:
    """The value of ``expr`` (``name.attr``) by the readings of the module doc, else None."""
    if not isinstance(expr.value, ast.Name) or expr.value.id in ("self", "cls"):
        return None
    name, attr, line = expr.value.id, expr.attr, getattr(expr, "lineno", None)
    if line is None:
        return None
    fn = _around(idx, line)
    scope: ast.AST = fn if fn is not None else idx.script.tree
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)} if fn is not None else set()
    if name not in params:
        got = _stored_here(idx, scope, name, attr, line, depth)
        if got is not None or fn is None:
            return got
        if fn.args.kwarg is not None:
            return _entry_options(idx, scope, name, attr)
        return _updated_from_options(idx, fn, name, attr, line)
    assert fn is not None
    if not any(key[1] == attr for key in _stores_of(idx.script.tree)):
        return None  # no object of the file has this attribute stored
    if _bindings(fn, name) != []:
        return None  # the parameter is rebound in the function
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    found: Any = None
    for site in idx.calls:
        call = site.call
        if not (isinstance(call.func, ast.Name) and call.func.id == fn.name):
            continue
        given = next((k.value for k in call.keywords if k.arg == name), None)
        if given is None and name in positional and positional.index(name) < len(call.args):
            given = call.args[positional.index(name)]
        caller = _around(idx, call.lineno)
        if not isinstance(given, ast.Name) or caller is fn:
            return None
        got = _stored_here(idx, caller if caller is not None else idx.script.tree, given.id, attr,
                           call.lineno, depth)
        if got is None or (found is not None and got.value != found.value):
            return None
        found = got
    return found


__all__ = ["stored_attribute"]
