"""A project function that reads one key of a dict with a default, called on a config object: read as
``cfg.get(key, default)`` (the key's value when the object has it, else unknown). Real shapes:
facebookresearch/DeepSDF @ 48c19b8 ``train_deep_sdf.py:231-235`` ``def get_spec_with_default(specs, key,
default): try: return specs[key] except KeyError: return default``, called
``get_spec_with_default(specs, "DataLoaderThreads", 1)`` at :346 on the ``specs.json`` of ``-e``; the same
helper as ``_cfg_get(cfg, key, default)`` and ``getOrDefault(schema, key, default)`` elsewhere. Also
``return d.get(key, default)`` and ``return d[key] if key in d else default``. A body doing anything
else (a second statement, another exception caught, the value changed) is not one."""

from __future__ import annotations

import ast
from typing import Any, Optional


def _is_read(node: Any, obj: str, key: str) -> bool:
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == obj \
        and isinstance(node.slice, ast.Name) and node.slice.id == key


def _returns(stmt: Any, name: str) -> bool:
    return isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and stmt.value.id == name


def getter_with_default(fn: ast.FunctionDef) -> bool:
    """Whether ``fn(d, key, default)`` returns ``d[key]``, or ``default`` when the key is missing."""
    args = fn.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or len(args.args) != 3:
        return False
    obj, key, default = (a.arg for a in args.args)
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1:
        return False
    stmt = body[0]
    if isinstance(stmt, ast.Try):
        return len(stmt.body) == 1 and isinstance(stmt.body[0], ast.Return) and _is_read(stmt.body[0].value, obj, key) \
            and len(stmt.handlers) == 1 and not stmt.orelse and not stmt.finalbody \
            and isinstance(stmt.handlers[0].type, ast.Name) and stmt.handlers[0].type.id == "KeyError" \
            and len(stmt.handlers[0].body) == 1 and _returns(stmt.handlers[0].body[0], default)
    if not isinstance(stmt, ast.Return) or stmt.value is None:
        return False
    value = stmt.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get" \
            and isinstance(value.func.value, ast.Name) and value.func.value.id == obj and not value.keywords \
            and len(value.args) == 2 and isinstance(value.args[0], ast.Name) and value.args[0].id == key \
            and isinstance(value.args[1], ast.Name) and value.args[1].id == default:
        return True
    if isinstance(value, ast.IfExp) and _is_read(value.body, obj, key) and isinstance(value.orelse, ast.Name) \
            and value.orelse.id == default:
        test = value.test
        return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In) \
            and isinstance(test.left, ast.Name) and test.left.id == key and isinstance(test.comparators[0], ast.Name) \
            and test.comparators[0].id == obj
    return False


def getter_call(node: ast.AST, builder: Any) -> Optional[ast.Subscript]:
    """``get_spec_with_default(specs, "Key", d)`` of such a project function -> ``specs["Key"]``; else None."""
    if builder is None or not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) \
            or node.keywords or len(node.args) != 3 or not isinstance(node.args[1], ast.Constant) \
            or not isinstance(node.args[1].value, str) or isinstance(node.args[0], ast.Starred):
        return None
    got = builder.m.function(node.func.id)
    if got is None or got[2] is not None or not getter_with_default(got[1]):
        return None
    return ast.Subscript(value=node.args[0], slice=node.args[1], ctx=ast.Load())
