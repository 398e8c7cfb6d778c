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


# annotations that say a parameter holds no module: scalars, strings, dtypes, devices, process groups
_PLAIN_TYPES = {"int", "float", "str", "bool", "None", "torch.dtype", "torch.device", "dtype", "device",
                "ProcessGroup", "dist.ProcessGroup", "torch.distributed.ProcessGroup"}


def _plain_annotation(node: Any) -> bool:
    from preflight.analysis.syntax import dotted_name

    if isinstance(node, ast.Constant) and node.value is None:
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a string annotation: "torch.dtype"
        try:
            return _plain_annotation(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # ``int | None``
        return _plain_annotation(node.left) and _plain_annotation(node.right)
    if isinstance(node, ast.Subscript) and dotted_name(node.value) in ("Optional", "typing.Optional", "Union",
                                                                          "typing.Union"):
        inner = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return all(_plain_annotation(e) for e in inner)
    return dotted_name(node) in _PLAIN_TYPES


def plain_parameters(init: ast.FunctionDef) -> set[str]:
    """The parameters whose annotation says they hold no module (``dtype: torch.dtype = torch.float32``,
    ``sequence_parallel_group: Optional[ProcessGroup] = None``, ``text_encoder: str = None``;
    NUS-HPC-AI-Lab/OpenDiT ``opendit/models/dit.py:37-58``): a value not known there is a plain value."""
    a = init.args
    return {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)
            if p.annotation is not None and _plain_annotation(p.annotation)}
