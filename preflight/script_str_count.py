"""``len(<known string>.split(sep))``: the number of pieces of a string the script knows.

Part of the script index's resolver (:meth:`preflight.script_resolve._Resolver.resolve`). Real shape:
TencentARC/InstantMesh ``train.py:174-176`` (08822c5) ``ngpu = len(opt.gpus.strip(",").split(','))``
with ``--gpus 0,1,2,3,4,5,6,7`` -> 8, handed to ``Trainer(devices=ngpu)``. Only a ``split`` of a
string known through ``strip``/``lstrip``/``rstrip``/``replace`` with constant arguments is counted
(never ``len`` of a bare string, whose meaning as a count is the script's)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Optional

from preflight.script_index_core import Resolved

if TYPE_CHECKING:
    from preflight.script_resolve import _Resolver

_EDITS = ("strip", "lstrip", "rstrip", "replace")


def _constant_args(call: ast.Call, most: int) -> Optional[list[Any]]:
    if call.keywords or len(call.args) > most:
        return None
    out = []
    for a in call.args:
        if not isinstance(a, ast.Constant) or not isinstance(a.value, str):
            return None
        out.append(a.value)
    return out


def _text(idx: _Resolver, expr: ast.AST, depth: int) -> Optional[tuple[str, Resolved]]:
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in _EDITS:
        args = _constant_args(expr, 2 if expr.func.attr == "replace" else 1)
        inner = _text(idx, expr.func.value, depth + 1) if args is not None else None
        if inner is None or (expr.func.attr == "replace" and len(args or ()) != 2):
            return None
        return getattr(inner[0], expr.func.attr)(*(args or ())), inner[1]
    got = idx.resolve(expr, depth + 1)
    if got is None or not isinstance(got.value, str):
        return None
    return got.value, got


def piece_count(idx: _Resolver, expr: ast.Call, depth: int) -> Optional[Resolved]:
    """The value of ``len(X.split(sep))`` when X is a known string, else None."""
    arg = expr.args[0]
    if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "split"):
        return None
    args = _constant_args(arg, 1)
    found = _text(idx, arg.func.value, depth) if args is not None else None
    if found is None:
        return None
    text, origin = found
    count = len(text.split(*(args or ())))
    return Resolved(count, origin.kind, getattr(expr, "lineno", None), origin.key,
                    f"{origin.detail + '; ' if origin.detail else ''}{count} comma-separated pieces"
                    if args == [","] else origin.detail, origin.cap)
