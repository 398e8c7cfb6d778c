"""The value a name holds at a call, from the straight-line code of the function around it.

A size handed to a model is often computed a few statements before the call, with a name rebound
under a test the options decide (Tencent/HunyuanDiT @ 368280e ``hydit/train_deepspeed.py:261-269``:
``image_size = args.image_size``; ``if len(image_size) == 1: image_size = [image_size[0], image_size[0]]``;
``latent_size = [image_size[0] // 8, image_size[1] // 8]``). ``flow_value`` walks the function's
statements in order up to the call (into ``with`` bodies and the ``if`` branches a known test decides),
binding each plain assignment; anything it cannot decide (a loop, ``try``, an undecided test that
rebinds the name, a call other than ``len``/``int``/``tuple``/``list``) makes the name unknown. Values of
the options come from ``resolve`` (the script index's reading of the launch line and defaults). Read,
never run.
"""

from __future__ import annotations

import ast
from typing import Any, Callable

_MAX_STEPS = 400


class _Unknown(Exception):
    pass


def _ev(node: ast.AST, env: dict[str, Any], resolve: Callable[[ast.expr], Any], unknown: Any) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            if env[node.id] is unknown:
                raise _Unknown(node.id)
            return env[node.id]
        got = resolve(node)
        if got is unknown:
            raise _Unknown(node.id)
        return got
    if isinstance(node, ast.Attribute):
        got = resolve(node)
        if got is unknown:
            raise _Unknown("attribute")
        return got
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_ev(e, env, resolve, unknown) for e in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.Subscript):
        seq, key = _ev(node.value, env, resolve, unknown), _ev(node.slice, env, resolve, unknown)
        if isinstance(seq, (list, tuple)) and isinstance(key, int) and not isinstance(key, bool) \
                and -len(seq) <= key < len(seq):
            return seq[key]
        if isinstance(seq, dict) and isinstance(key, str) and key in seq:
            return seq[key]
        raise _Unknown("subscript")
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        a, b = _ev(node.left, env, resolve, unknown), _ev(node.right, env, resolve, unknown)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b)):
            raise _Unknown("arithmetic")
        if isinstance(node.op, ast.FloorDiv):
            if b == 0:
                raise _Unknown("division")
            return a // b
        return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}[type(node.op)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1 \
            and not node.keywords and node.func.id in ("len", "int", "tuple", "list"):
        got = _ev(node.args[0], env, resolve, unknown)
        try:
            if node.func.id == "len":
                return len(got)
            if node.func.id == "int":
                return int(got)
            return tuple(got) if node.func.id == "tuple" else list(got)
        except (TypeError, ValueError):
            raise _Unknown("call") from None
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        a, b = _ev(node.left, env, resolve, unknown), _ev(node.comparators[0], env, resolve, unknown)
        op = node.ops[0]
        try:
            if isinstance(op, ast.Eq):
                return a == b
            if isinstance(op, ast.NotEq):
                return a != b
            if isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
                return {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b}[type(op)]
        except TypeError:
            pass
    raise _Unknown("expression")


def _stored(stmts: list[ast.stmt]) -> set[str]:
    return {n.id for s in stmts for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def flow_value(fn: ast.FunctionDef, expr: ast.expr, line: int, resolve: Callable[[ast.expr], Any]) -> Any:
    """The value of ``expr`` (a name, or an expression of names) at ``line`` of ``fn`` (see the module
    comment), else ``UNKNOWN``."""
    from preflight.adapters.module_params_nested import UNKNOWN

    env: dict[str, Any] = {}
    steps = [0]

    def run(stmts: list[ast.stmt]) -> bool:
        """Binds names along ``stmts``; True once the call's line is reached."""
        for st in stmts:
            steps[0] += 1
            if steps[0] > _MAX_STEPS:
                raise _Unknown("too long")
            if st.lineno > line:
                return True
            if (st.end_lineno or st.lineno) >= line:
                if isinstance(st, (ast.With, ast.AsyncWith)):
                    return run(st.body)
                if isinstance(st, ast.If):
                    try:
                        taken = _ev(st.test, env, resolve, UNKNOWN)
                    except _Unknown:
                        return True
                    return run(st.body if taken else st.orelse)
                return True  # the statement holding the call
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                try:
                    env[st.targets[0].id] = _ev(st.value, env, resolve, UNKNOWN)
                except _Unknown:
                    env[st.targets[0].id] = UNKNOWN
                continue
            if isinstance(st, ast.If):
                try:
                    taken = _ev(st.test, env, resolve, UNKNOWN)
                except _Unknown:
                    for name in _stored([*st.body, *st.orelse]):
                        env[name] = UNKNOWN
                    continue
                if run(st.body if taken else st.orelse):
                    return True
                continue
            if isinstance(st, (ast.Expr, ast.Assert, ast.Raise, ast.Pass, ast.Import, ast.ImportFrom)):
                continue
            for name in _stored([st]):  # a loop, ``try``, a tuple target, ``x += 1``: not followed
                env[name] = UNKNOWN
        return False

    try:
        run(fn.body)
        return _ev(expr, env, resolve, UNKNOWN)
    except (_Unknown, RecursionError):
        return UNKNOWN
