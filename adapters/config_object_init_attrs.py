"""The attributes a plain config class sets in its argument-less ``__init__`` (read by
:meth:`preflight.adapters.config_object.Builder.class_tree`; nothing is imported or run).

ZhengPeng7/BiRefNet @ 25cb930 ``config.py:5-119`` ``class Config(): def __init__(self) -> None:`` with
``self.batch_size = 8``, ``self.compile = True``, ``self.mixed_precision = ['no', 'fp16', 'bf16', 'fp8'][2]``,
``self.task = ['DIS5K', 'COD', ...][0]``, ``self.size = (1024, 1024) if self.task not in ['General-2K'] else
(2560, 1440)``, ``self.num_workers = max(4, self.batch_size)``, ``self.optimizer = ['Adam', 'AdamW'][1]``, then
``config = Config()`` in ``train.py:30`` (the option picked by indexing an inline list of the choices: the
same author's person-search and COD repositories carry the same ``config.py``).

Read: the statements ``self.X = E`` at the top level of ``__init__(self)`` (no other parameter), in order, with
``E`` a literal, an inline list/tuple/dict indexed by a value known here (``[...][2]``, ``{...}[self.task]``),
``self.Y`` set earlier, ``A if C else B`` with ``C`` a comparison (``==``, ``!=``, ``in``, ``not in``) or a
truth test of known values, ``and``/``or``/``not`` of known values, ``max``/``min`` of known numbers, or
``+ - * //`` of known numbers. Any other ``E`` leaves ``X`` unknown; an ``X`` also assigned in a nested block
or in another method of the class is unknown (its value depends on run time). A class with a base, or a
``__init__`` taking parameters, is not read here.
"""

from __future__ import annotations

import ast
import operator
from typing import Any, Optional

_UNKNOWN = object()
_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}
_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.In: lambda a, b: a in b,
        ast.NotIn: lambda a, b: a not in b}


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str)) or (
        isinstance(value, (list, tuple)) and all(_plain(v) for v in value))


def _eval(node: ast.AST, known: dict[str, Any], me: str) -> Any:
    """The value of ``node`` over the attributes ``known`` so far, or ``_UNKNOWN``."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_eval(e, known, me) for e in node.elts]
        if any(i is _UNKNOWN for i in items) or any(isinstance(e, ast.Starred) for e in node.elts):
            return _UNKNOWN
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == me:
        return known.get(node.attr, _UNKNOWN)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        inner = _eval(node.operand, known, me)
        if inner is _UNKNOWN:
            return _UNKNOWN
        if isinstance(node.op, ast.Not):
            return not inner
        return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else _UNKNOWN
    if isinstance(node, ast.Subscript):
        return _subscript(node, known, me)
    if isinstance(node, ast.IfExp):
        test = _eval(node.test, known, me)
        return _UNKNOWN if test is _UNKNOWN else _eval(node.body if test else node.orelse, known, me)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _CMP:
        left, right = _eval(node.left, known, me), _eval(node.comparators[0], known, me)
        if left is _UNKNOWN or right is _UNKNOWN:
            return _UNKNOWN
        try:
            return bool(_CMP[type(node.ops[0])](left, right))
        except TypeError:
            return _UNKNOWN
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, known, me) for v in node.values]
        if any(v is _UNKNOWN for v in values):
            return _UNKNOWN
        out = values[0]
        for v in values[1:]:
            out = (out and v) if isinstance(node.op, ast.And) else (out or v)
        return out
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        left, right = _eval(node.left, known, me), _eval(node.right, known, me)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right)):
            return _UNKNOWN
        if isinstance(node.op, ast.FloorDiv) and right == 0:
            return _UNKNOWN
        return _BIN[type(node.op)](left, right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("max", "min") \
            and len(node.args) >= 2 and not node.keywords:
        args = [_eval(a, known, me) for a in node.args]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in args):
            return _UNKNOWN
        return max(args) if node.func.id == "max" else min(args)
    return _UNKNOWN


def _subscript(node: ast.Subscript, known: dict[str, Any], me: str) -> Any:
    """``[...][i]`` / ``(...)[i]`` with an int index, ``{...}[k]`` over a dict literal (only the picked value
    is evaluated: the other entries may name run-time values)."""
    if isinstance(node.slice, ast.Slice):
        return _UNKNOWN
    key = _eval(node.slice, known, me)
    if key is _UNKNOWN:
        return _UNKNOWN
    base = node.value
    if isinstance(base, (ast.List, ast.Tuple)) and isinstance(key, int) and not isinstance(key, bool):
        if any(isinstance(e, ast.Starred) for e in base.elts) or not -len(base.elts) <= key < len(base.elts):
            return _UNKNOWN
        return _eval(base.elts[key], known, me)
    if isinstance(base, ast.Dict) and isinstance(key, (str, int)):
        keys = [_eval(k, known, me) if k is not None else _UNKNOWN for k in base.keys]
        if any(k is _UNKNOWN for k in keys) or keys.count(key) != 1:
            return _UNKNOWN
        return _eval(base.values[keys.index(key)], known, me)
    return _UNKNOWN


def init_attrs(cls: ast.ClassDef) -> dict[str, tuple[Any, int]]:
    """``name -> (value, line)`` of the module docstring's ``self.X = E`` statements; empty when not read."""
    inits = [s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"]
    if cls.bases or len(inits) != 1:
        return {}
    init = inits[0]
    a = init.args
    if len(a.args) != 1 or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        return {}
    me = a.args[0].arg
    top = {id(s) for s in init.body}
    elsewhere: set[str] = set()  # assigned in a nested block of __init__ or in another method
    for fn in cls.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if fn is init and id(node) in top:
                continue
            targets: list[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for t in targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) \
                            and sub.value.id in (me, "self"):
                        elsewhere.add(sub.attr)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
                return {}  # any attribute may be set
    known: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for stmt in init.body:
        target: Optional[ast.AST] = None
        value: Optional[ast.AST] = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
            target, value = stmt.target, stmt.value
            if isinstance(stmt, ast.AugAssign):
                value = None  # ``self.x += ...``: not read
        if target is None:
            continue
        attrs = [s.attr for s in ast.walk(target) if isinstance(s, ast.Attribute)
                 and isinstance(s.value, ast.Name) and s.value.id == me]
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == me):
            for attr in attrs:
                known.pop(attr, None)
            continue
        got = _eval(value, known, me) if value is not None else _UNKNOWN
        if got is _UNKNOWN or not _plain(got):
            known.pop(target.attr, None)
            continue
        known[target.attr] = got
        lines[target.attr] = stmt.lineno
    return {k: (v, lines[k]) for k, v in known.items() if k not in elsewhere and not k.startswith("_")}
