"""Binding a call's arguments to a local function's parameters (defaults, ``*args``, keyword-only,
``**kwargs``) for the nested parameter counter (:mod:`preflight.adapters.module_params_nested`), which
evaluates the defaults. Split from that module."""

from __future__ import annotations

import ast
from typing import Any, Callable

from preflight.adapters.module_params import _Unknown
from preflight.adapters.module_params_values import _UNK


def bind_arguments(init: ast.FunctionDef, args: list[Any], kwargs: dict[str, Any], skip: int,
                   ev: Callable[[ast.expr], Any]) -> dict[str, Any]:
    """The locals a call binds: defaults (``ev`` evaluates one, raising ``_Unknown``), then the arguments
    (``skip``: 1 for ``self``). Raises ``_Unknown`` on arguments the signature cannot take."""
    a = init.args
    positional = [p.arg for p in a.posonlyargs + a.args][skip:]
    env: dict[str, Any] = {}
    for pname, default in zip(positional[len(positional) - len(a.defaults):], a.defaults):
        try:
            env[pname] = ev(default)
        except _Unknown:
            env[pname] = _UNK
    for arg, kw_default in zip(a.kwonlyargs, a.kw_defaults):
        if kw_default is not None:
            try:
                env[arg.arg] = ev(kw_default)
            except _Unknown:
                env[arg.arg] = _UNK
    if len(args) > len(positional):
        if a.vararg is None:
            raise _Unknown("too many arguments")
        env[a.vararg.arg] = tuple(args[len(positional):])
    elif a.vararg is not None:
        env[a.vararg.arg] = ()
    env.update(zip(positional, args))
    names = set(positional) | {p.arg for p in a.kwonlyargs}
    extra = {k: v for k, v in kwargs.items() if k not in names}
    if extra and a.kwarg is None:
        raise _Unknown("unexpected keyword")
    env.update({k: v for k, v in kwargs.items() if k in names})
    if a.kwarg is not None:
        env[a.kwarg.arg] = extra
    for pname in names:
        env.setdefault(pname, _UNK)
    return env
