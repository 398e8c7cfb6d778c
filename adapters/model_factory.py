"""A project's model factory: a function that picks the model class by a name in its arguments, read for
the counter (``model_imported``).

Training scripts of every field build the model through one function of the project that compares a name
among the options with string literals and builds the class that name selects (epfml/llm-baselines @
c8a5105 ``src/models/utils.py:16-22``, called at ``src/main.py:89`` as ``model = get_model(args)``)::

    def get_model(args):
        if args.model == "base":
            model = GPTBase(args)
            if args.use_pretrained != "none":
                model.from_pretrained(args.use_pretrained)
            return model
        elif args.model == "llama":
            ...

and the same with the import inside the arm (weiaicunzai/pytorch-cifar100 @ 11d8418 ``utils.py:18-25``,
``train.py:130`` ``net = get_network(args)``)::

    def get_network(args):
        if args.net == 'vgg16':
            from models.vgg import vgg16_bn
            net = vgg16_bn()
        elif ...

Read, never imported or run: each ``if`` of the function's body whose test the call's arguments decide
(``p == 'x'``, ``p.attr != 'x'``, ``in``/``not in`` a literal, ``is None``, ``not``, ``and``/``or``, a
known flag) is replaced by the arm it takes; an import in a taken arm is moved to the module's top, so
that the module the arm builds from is read with it. The counter then runs the function as it runs any
project function (``module_params_calls.count_call``): a test left undecided, a taken arm that raises
or exits, or a class it cannot count states nothing. A name the launch line and the declared defaults
do not fix leaves every test undecided, so nothing is counted.
"""

from __future__ import annotations

import ast
import copy
from typing import Any, Optional

#: statements of the function read, in all arms (a bound on the work for a factory of many arms)
_MAX_STATEMENTS = 2_000


class _Undecided(Exception):
    pass


def _value(node: ast.expr, env: dict[str, Any], unknown: Any) -> Any:
    """The value of a test's operand: a literal, a parameter, an attribute of a parameter that holds the
    known options (a dict of name -> value); else ``_Undecided``."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in env and env[node.id] is not unknown:
        return env[node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and isinstance(env.get(node.value.id), dict):
        held = env[node.value.id]
        if node.attr in held and held[node.attr] is not unknown:
            return held[node.attr]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return tuple(_value(e, env, unknown) for e in node.elts)
    raise _Undecided


def _test(node: ast.expr, env: dict[str, Any], unknown: Any) -> bool:
    """A test decided by the call's arguments, else ``_Undecided``."""
    if isinstance(node, ast.BoolOp):
        values = [_test(v, env, unknown) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _test(node.operand, env, unknown)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = _value(node.left, env, unknown), _value(node.comparators[0], env, unknown)
        op = node.ops[0]
        if isinstance(op, (ast.Eq, ast.NotEq)):
            if not isinstance(left, (str, int, float, bool, type(None), tuple)) \
                    or not isinstance(right, (str, int, float, bool, type(None), tuple)):
                raise _Undecided
            return (left == right) == isinstance(op, ast.Eq)
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, tuple):
            return (left in right) == isinstance(op, ast.In)
        if isinstance(op, (ast.Is, ast.IsNot)) and right is None:
            return (left is None) == isinstance(op, ast.Is)
        raise _Undecided
    got = _value(node, env, unknown)
    if isinstance(got, (bool, type(None))):
        return bool(got)
    raise _Undecided


def _flatten(stmts: list[ast.stmt], env: dict[str, Any], unknown: Any, hoisted: list[ast.stmt],
             budget: list[int]) -> list[ast.stmt]:
    """The statements run, with each decided ``if`` replaced by its taken arm and the imports of taken arms
    moved into ``hoisted``; statements after a ``return`` of the taken path are dropped."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        budget[0] -= 1
        if budget[0] < 0:
            raise _Undecided
        if isinstance(stmt, ast.If):
            try:
                taken = _test(stmt.test, env, unknown)
            except _Undecided:
                out.append(stmt)  # left to the counter: one it cannot decide stops the count
                continue
            arm = _flatten(stmt.body if taken else stmt.orelse, env, unknown, hoisted, budget)
            out.extend(arm)
            if arm and isinstance(arm[-1], (ast.Return, ast.Raise)):
                return out
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            hoisted.append(stmt)
            continue
        if _moved(stmt):
            continue  # ``net = net.cuda()``: the same module, on a device
        stmt = _unmoved(stmt)
        if any(isinstance(t, ast.Name) and t.id in env for t in _targets(stmt)):
            env = {**env}  # a parameter rebound: its value is no longer the call's
            for t in _targets(stmt):
                if isinstance(t, ast.Name):
                    env.pop(t.id, None)
        out.append(stmt)
        if isinstance(stmt, (ast.Return, ast.Raise)):
            return out
    return out


_MOVES = ("cuda", "to", "cpu", "float", "half", "double", "bfloat16", "train")


def _moved(stmt: ast.stmt) -> bool:
    """``m = m.cuda()`` / ``m = m.to(device)`` / ``m.cuda()``: a module moved or cast, its parameters the same."""
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _MOVES
            and isinstance(value.func.value, ast.Name)):
        return False
    if isinstance(stmt, ast.Expr):
        return True
    assert isinstance(stmt, ast.Assign)
    return len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
        and stmt.targets[0].id == value.func.value.id


def _unmoved(stmt: ast.stmt) -> ast.stmt:
    """``model = models.Net().cuda()`` / ``return Net(args).to(device)``: the statement without the move."""
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.Return)) else None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _MOVES
            and isinstance(value.func.value, ast.Call)):
        return stmt
    clone = copy.copy(stmt)
    assert isinstance(clone, (ast.Assign, ast.Return))
    clone.value = value.func.value
    return clone


def _targets(stmt: ast.stmt) -> list[ast.expr]:
    if isinstance(stmt, ast.Assign):
        return [n for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return [stmt.target]
    return []


def factory_module(tree: ast.Module, name: str, args: list[Any], kwargs: dict[str, Any],
                   unknown: Any, hoist_only: bool = False) -> Optional[ast.Module]:
    """``tree`` with the top-level function ``name`` reduced to the arms its call takes and the imports of
    those arms moved to the top (the module comment), or None when the function is not a plain one of
    positional-or-keyword parameters or a test on the way is not decided before its ``return``. With
    ``hoist_only``: the imports of every arm moved to the top, the function kept (to learn which attributes
    of the options the classes it may build read)."""
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(fns) != 1 or fns[0].decorator_list or fns[0].args.vararg or fns[0].args.kwonlyargs \
            or fns[0].args.posonlyargs:
        return None
    fn = fns[0]
    if hoist_only:
        inner = [n for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))]
        return ast.Module(body=[*inner, *tree.body], type_ignores=[]) if inner else tree
    params = [a.arg for a in fn.args.args]
    if len(args) > len(params) or any(k not in params for k in kwargs):
        return None
    env: dict[str, Any] = dict(zip(params, args))
    env.update(kwargs)
    hoisted: list[ast.stmt] = []
    try:
        body = _flatten(list(fn.body), env, unknown, hoisted, [_MAX_STATEMENTS])
    except _Undecided:
        return None
    if not body or not isinstance(body[-1], ast.Return) or any(isinstance(s, ast.If) for s in body):
        return None  # no decided return, or an undecided test left on the way to it
    reduced = copy.copy(fn)
    reduced.body = body
    module_body = [*hoisted, *(reduced if n is fn else n for n in tree.body)]
    return ast.Module(body=_used_imports(module_body, reduced), type_ignores=[])


def _used_imports(body: list[ast.stmt], fn: ast.FunctionDef) -> list[ast.stmt]:
    """``body`` with the names its ``from m import a, b`` lines bind cut to those the reduced function uses,
    directly or through the module's other definitions it calls: the classes of the arms not taken are not
    read (llm-baselines ``src/models/utils.py:3-6`` imports four model modules that each define a ``Block``
    of their own; read together, the name would be ambiguous)."""
    defs = {n.name: n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n is not fn}
    used: set[str] = set()
    todo: list[ast.AST] = [fn]
    while todo:
        node = todo.pop()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id not in used:
                used.add(sub.id)
                if sub.id in defs:
                    todo.append(defs[sub.id])
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom):
            names = [a for a in stmt.names if a.name == "*" or (a.asname or a.name) in used]
            if not names:
                continue
            if len(names) != len(stmt.names):
                stmt = ast.copy_location(ast.ImportFrom(module=stmt.module, names=names, level=stmt.level), stmt)
        out.append(stmt)
    return out


def built_class(tree: ast.Module, name: str) -> Optional[str]:
    """The name of what the reduced function ``name`` of ``tree`` builds and returns: ``return Cls(...)``, or
    ``return m`` with ``m = Cls(...)`` bound once in it; None otherwise."""
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(fns) != 1 or not fns[0].body or not isinstance(fns[0].body[-1], ast.Return):
        return None
    value = fns[0].body[-1].value
    if isinstance(value, ast.Name):
        binds = [s.value for s in fns[0].body if isinstance(s, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == value.id for t in s.targets)]
        value = binds[0] if len(binds) == 1 else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return value.func.id
    return None
