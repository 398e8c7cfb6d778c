"""A value handed to a function or constructor by parameter, read at its call sites, and a value
returned by a small helper that picks on an option (``if policy == 'zero2': return X elif ...``).

VentusAislant/MyDemos my_demos/DDP_demos/DDP4_fsdp_torchrun_training.py: ``main`` builds
``sharding_strategy = get_sharding_strategy(args.sharding_strategy)`` (lines 160-166: ``if policy ==
'zero2': return ShardingStrategy.SHARD_GRAD_OP elif policy == 'zero3': ...``) and
``optimizer_cls = torch.optim.Adam``, passes both to ``Trainer(..., optimizer_cls=optimizer_cls,
sharding_strategy=sharding_strategy, ...)``, and ``Trainer.__init__`` calls ``FSDP(...,
sharding_strategy=sharding_strategy)`` and ``optimizer_cls(params=..., lr=lr)``.

A parameter is read only when every call of its function in the script (``C(...)`` for ``C.__init__``, ``f(...)``
for a top-level ``f``) passes it, by keyword or by position, with the same expression text and no
``*args``/``**kwargs``; a name passed is followed only where the file binds it once (and the caller does not take
it as its own parameter). A helper is read only when it is a top-level function of one parameter whose body is an
``if``/``elif`` chain of ``param == 'literal'`` tests, each arm a ``return``; its argument must resolve to a
literal. Anything else: nothing (None)."""

from __future__ import annotations

import ast
from typing import Any, Optional


def enclosing(tree: ast.AST, target: ast.AST) -> tuple[Optional[ast.FunctionDef], Optional[ast.ClassDef]]:
    """The top-level function or the method of a top-level class around ``target`` (and that class)."""
    for node in getattr(tree, "body", []):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and any(n is target for n in ast.walk(item)):
                    return item, node
        elif isinstance(node, ast.FunctionDef) and any(n is target for n in ast.walk(node)):
            return node, None
    return None, None


def params(fn: Optional[ast.FunctionDef]) -> set[str]:
    if fn is None:
        return set()
    args = fn.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}


def passed_argument(tree: ast.AST, node: ast.AST, name: str) -> Optional[tuple[ast.expr, Optional[ast.FunctionDef]]]:
    """What every call passes for ``name``, a parameter of the function around ``node``: (the expression
    at one call, the function around that call); None unless all calls agree."""
    fn, owner = enclosing(tree, node)
    if fn is None or name not in params(fn):
        return None
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if owner is not None:
        if fn.name != "__init__":
            return None
        callee, skip = owner.name, 1
    else:
        callee, skip = fn.name, 0
    position = positional.index(name) - skip if name in positional else None
    found: Optional[tuple[ast.expr, Optional[ast.FunctionDef]]] = None
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == callee):
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        given = next((k.value for k in call.keywords if k.arg == name), None)
        if given is None and position is not None and 0 <= position < len(call.args):
            given = call.args[position]
        if given is None:
            return None
        if found is not None and ast.dump(found[0]) != ast.dump(given):
            return None
        found = (given, enclosing(tree, call)[0])
    return found


def bound_once(idx: Any, expr: ast.expr, caller: Optional[ast.FunctionDef]) -> Optional[ast.expr]:
    """The one value the file binds to the name ``expr`` (not a parameter of ``caller``)."""
    if not isinstance(expr, ast.Name) or expr.id in params(caller):
        return None
    values = [v for v in idx.assigns.get(expr.id, []) if v is not None]
    if len(values) != 1:
        return None
    return values[0]


def helper_pick(idx: Any, call: ast.expr) -> Optional[ast.expr]:
    """``get_x(args.opt)`` with ``def get_x(p): if p == 'a': return A elif p == 'b': return B``: the
    expression the taken arm returns."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and len(call.args) == 1
            and not call.keywords and not isinstance(call.args[0], ast.Starred)):
        return None
    defs = [n for n in getattr(idx.script.tree, "body", []) if isinstance(n, ast.FunctionDef)
            and n.name == call.func.id]
    if len(defs) != 1 or len(defs[0].args.args) != 1 or defs[0].args.vararg or defs[0].args.kwarg:
        return None
    fn = defs[0]
    param = fn.args.args[0].arg
    arg = idx.resolve(call.args[0])
    if arg is None or not isinstance(arg.value, str):
        return None
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    stmts: list[ast.stmt] = body
    while stmts:
        st = stmts[0]
        if isinstance(st, ast.Return):
            return st.value
        if not isinstance(st, ast.If):
            return None
        test = st.test
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
            return None
        sides = [test.left, test.comparators[0]]
        names = [s for s in sides if isinstance(s, ast.Name) and s.id == param]
        consts = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
        if len(names) != 1 or len(consts) != 1:
            return None
        if consts[0].value == arg.value:
            first = st.body[0] if len(st.body) == 1 else None
            return first.value if isinstance(first, ast.Return) else None
        stmts = st.orelse + stmts[1:] if st.orelse else stmts[1:]
    return None


def through_parameter(idx: Any, node: ast.AST, expr: ast.expr) -> Optional[ast.expr]:
    """``expr``, a parameter name of the function around ``node``, followed to what its calls pass: the
    expression passed, or the one value a passed name is bound to, or the arm a helper picks for it."""
    if not isinstance(expr, ast.Name):
        return None
    passed = passed_argument(idx.script.tree, node, expr.id)
    if passed is None:
        return None
    given, caller = passed
    if isinstance(given, ast.Name):
        value = bound_once(idx, given, caller)
        if value is None:
            return None
        given = value
    picked = helper_pick(idx, given)
    return picked if picked is not None else given
