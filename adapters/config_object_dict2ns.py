"""A project function that turns a loaded config dict into an object whose attributes are its
keys, recursively: the ``dict2namespace`` of ermongroup/ddim ``main.py:200-208`` (e8df66c), copied
into many diffusion and restoration projects::

    def dict2namespace(config):
        namespace = argparse.Namespace()
        for key, value in config.items():
            if isinstance(value, dict):
                new_value = dict2namespace(value)
            else:
                new_value = value
            setattr(namespace, key, new_value)
        return namespace

``new_config = dict2namespace(config)`` then holds the same keys as ``config`` (a nested dict reads
``config.training.batch_size`` for ``config["training"]["batch_size"]``). The function is recognised
by its shape, never by its name: one parameter; a fresh ``argparse.Namespace()`` /
``SimpleNamespace()``; one loop over ``param.items()`` whose only effect is ``setattr(ns, key, V)``
where ``V`` is the loop's value or the function's own call on it (directly or through one name
bound in an ``if``/``else`` on ``isinstance(value, dict)``); ``return ns``. Any other statement
(a key renamed, a value changed, a default added) makes it not recognised: the keys are then
unknown, never guessed. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Callable, Optional

from preflight.analysis.syntax import dotted_name

_NAMESPACES = ("argparse.Namespace", "Namespace", "types.SimpleNamespace", "SimpleNamespace")


def _dotted(node: ast.AST) -> str:
    return dotted_name(node) or ""


def _body(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Statements less docstrings."""
    return [s for s in stmts if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                     and isinstance(s.value.value, str))]


def _same_or_recursed(node: ast.AST, value: str, fn_name: str) -> bool:
    """``value`` itself, or ``fn_name(value)``."""
    if isinstance(node, ast.Name):
        return node.id == value
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == fn_name
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Name)
            and node.args[0].id == value)


def _is_dict_test(test: ast.AST, value: str) -> bool:
    return (isinstance(test, ast.Call) and _dotted(test.func) == "isinstance" and len(test.args) == 2
            and isinstance(test.args[0], ast.Name) and test.args[0].id == value
            and _dotted(test.args[1]) in ("dict", "collections.abc.Mapping", "Mapping"))


def _ternary_ok(node: ast.AST, value: str, fn_name: str) -> bool:
    """``fn(v) if isinstance(v, dict) else v`` (or a plain ``v``/``fn(v)``)."""
    if isinstance(node, ast.IfExp):
        return (_is_dict_test(node.test, value) and _same_or_recursed(node.body, value, fn_name)
                and _same_or_recursed(node.orelse, value, fn_name))
    return _same_or_recursed(node, value, fn_name)


def _loop_ok(loop: ast.For, param: str, ns: str, fn_name: str) -> bool:
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items"
            and isinstance(it.func.value, ast.Name) and it.func.value.id == param and not it.args):
        return False
    target = loop.target
    if not (isinstance(target, ast.Tuple) and len(target.elts) == 2
            and all(isinstance(e, ast.Name) for e in target.elts)) or loop.orelse:
        return False
    key, value = (e.id for e in target.elts)  # type: ignore[attr-defined]
    body = _body(loop.body)
    bound: Optional[str] = None
    if len(body) == 2 and isinstance(body[0], ast.If):
        branch = body[0]
        if not _is_dict_test(branch.test, value) or len(branch.body) != 1 or len(branch.orelse) != 1:
            return False
        names = set()
        for stmt in (branch.body[0], branch.orelse[0]):
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and _same_or_recursed(stmt.value, value, fn_name)):
                return False
            names.add(stmt.targets[0].id)
        if len(names) != 1:
            return False
        bound = names.pop()
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Expr):
        return False
    call = body[0].value
    if not (isinstance(call, ast.Call) and _dotted(call.func) == "setattr" and len(call.args) == 3
            and not call.keywords):
        return False
    obj, name, val = call.args
    if not (isinstance(obj, ast.Name) and obj.id == ns and isinstance(name, ast.Name) and name.id == key):
        return False
    if bound is not None:
        return isinstance(val, ast.Name) and val.id == bound
    return _ternary_ok(val, value, fn_name)


def is_dict_to_namespace(fn: ast.FunctionDef) -> bool:
    """Whether ``fn`` only copies its one dict parameter's keys onto a new namespace (above)."""
    args = fn.args
    if len(args.args) != 1 or args.vararg or args.kwarg or args.kwonlyargs or fn.decorator_list:
        return False
    param = args.args[0].arg
    body = _body(fn.body)
    if len(body) != 3:
        return False
    make, loop, ret = body
    if not (isinstance(make, ast.Assign) and len(make.targets) == 1 and isinstance(make.targets[0], ast.Name)
            and isinstance(make.value, ast.Call) and _dotted(make.value.func) in _NAMESPACES
            and not make.value.args and not make.value.keywords):
        return False
    ns = make.targets[0].id
    if not (isinstance(ret, ast.Return) and isinstance(ret.value, ast.Name) and ret.value.id == ns):
        return False
    return isinstance(loop, ast.For) and _loop_ok(loop, param, ns, fn.name)


def converted_name(value: ast.AST, modules: object) -> Optional[str]:
    """The dict name ``value`` hands to a project dict-to-namespace function (``dict2namespace(config)``),
    or None."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and len(value.args) == 1
            and not value.keywords and isinstance(value.args[0], ast.Name)):
        return None
    function = getattr(modules, "function", None)
    got = function(value.func.id) if function is not None else None
    if got is None or got[2] is not None:
        return None
    return value.args[0].id if is_dict_to_namespace(got[1]) else None


def unwrapped_load(value: ast.AST, is_wrapper: Callable[[ast.AST], Optional[str]]) -> Optional[ast.AST]:
    """The load call a dict wrapper is applied to in one expression, or None: ``EasyDict(yaml.safe_load(f))``,
    ``dict2namespace(yaml.safe_load(f))`` (the wrapper checked by ``is_wrapper`` exactly as for
    ``EasyDict(d)``: a library wrapper imported by name, or a project class or converter of the shapes
    :func:`preflight.adapters.config_object_roots.dict_wrapper` accepts)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and len(value.args) == 1
            and not value.keywords and isinstance(value.args[0], ast.Call)):
        return None
    probe = ast.Call(func=value.func, args=[ast.Name(id=_PROBE, ctx=ast.Load())], keywords=[])
    return value.args[0] if is_wrapper(probe) == _PROBE else None


_PROBE = "<the loaded dict>"
