"""argparse options declared from a dict by a helper (read by :mod:`cliargs_options`):

    defaults = dict(batch_size=1, microbatch=-1, use_fp16=False, ...)
    defaults.update(model_and_diffusion_defaults())   # a function returning dict(...)
    parser = argparse.ArgumentParser()
    add_dict_to_argparser(parser, defaults)

with ``def add_dict_to_argparser(parser, default_dict): for k, v in default_dict.items():
parser.add_argument(f"--{k}", default=v, type=...)`` (openai/improved-diffusion @ 1bc7bbb
``scripts/image_train.py:60-79`` and ``improved_diffusion/script_util.py:271-278``; the same helper in
openai/guided-diffusion and its forks). Each key of the dict is an option ``--key`` with the value
as its default. The helper is recognised by its body (a loop over the dict's ``items()`` calling
``add_argument`` with an f-string flag of the key and ``default=`` the value), never by its name;
the dict is a literal ``dict(...)``/``{...}`` bound in the calling function, with the literal dicts
that ``update(f())`` adds from functions of the scanned modules. A non-literal value is an option
without a known default. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

_MAX_KEYS = 400


def _helpers(trees: list[tuple[ast.Module, str]]) -> dict[str, tuple[int, int]]:
    """name -> (position of the parser parameter, position of the dict parameter)."""
    out: dict[str, tuple[int, int]] = {}
    for tree, _ in trees:
        for fn in tree.body:
            if not isinstance(fn, ast.FunctionDef) or len(fn.args.args) < 2:
                continue
            params = [a.arg for a in fn.args.args]
            for loop in ast.walk(fn):
                if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Tuple) \
                        or len(loop.target.elts) != 2 or not isinstance(loop.iter, ast.Call) \
                        or not isinstance(loop.iter.func, ast.Attribute) or loop.iter.func.attr != "items" \
                        or not isinstance(loop.iter.func.value, ast.Name) or loop.iter.func.value.id not in params:
                    continue
                key, value = loop.target.elts
                if not isinstance(key, ast.Name) or not isinstance(value, ast.Name):
                    continue
                for call in (n for stmt in loop.body for n in ast.walk(stmt)):
                    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                            and call.func.attr == "add_argument" and isinstance(call.func.value, ast.Name) \
                            and call.func.value.id in params and call.args \
                            and isinstance(call.args[0], ast.JoinedStr) \
                            and any(isinstance(p, ast.FormattedValue) and isinstance(p.value, ast.Name)
                                    and p.value.id == key.id for p in call.args[0].values) \
                            and any(k.arg == "default" and isinstance(k.value, ast.Name) and k.value.id == value.id
                                    for k in call.keywords):
                        out[fn.name] = (params.index(call.func.value.id), params.index(loop.iter.func.value.id))
    return out


def _dict_literal(node: Optional[ast.AST]) -> Optional[dict[str, tuple[bool, Any, int]]]:
    """key -> (known, value, line) of ``dict(k=v, ...)`` or ``{"k": v}``."""
    out: dict[str, tuple[bool, Any, int]] = {}
    pairs: list[tuple[str, ast.AST]] = []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        if any(k.arg is None for k in node.keywords):
            return None
        pairs = [(k.arg, k.value) for k in node.keywords if k.arg is not None]
    elif isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values):
            if not isinstance(k, ast.Constant) or not isinstance(k.value, str):
                return None
            pairs.append((k.value, v))
    else:
        return None
    for key, value in pairs[:_MAX_KEYS]:
        line = getattr(value, "lineno", 0)
        try:
            out[key] = (True, ast.literal_eval(value), line)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            out[key] = (False, None, line)
    return out


def _updates(fn: ast.FunctionDef, name: str) -> Optional[list[str]]:
    """The functions ``name.update(g())`` statements of ``fn``'s body merge in, in order; None when ``name``
    is changed any other way (a call of another method, an item stored)."""
    merged: list[str] = []
    plain = set()
    for stmt in fn.body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "update" \
                and isinstance(call.func.value, ast.Name) and call.func.value.id == name and len(call.args) == 1 \
                and not call.keywords and isinstance(call.args[0], ast.Call) \
                and isinstance(call.args[0].func, ast.Name) and not call.args[0].args and not call.args[0].keywords:
            merged.append(call.args[0].func.id)
            plain.add(id(call))
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and id(n) not in plain and isinstance(n.func, ast.Attribute) \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
            return None
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) \
                and n.value.id == name:
            return None
    return merged


def _returned_dicts(trees: list[tuple[ast.Module, str]]) -> dict[str, list[tuple[dict, str]]]:
    """Functions whose one ``return`` is a dict literal: name -> the (keys, module shown) it is made of."""
    out: dict[str, list[tuple[dict, str]]] = {}
    pending: dict[str, list[str]] = {}
    for tree, shown in trees:
        for fn in tree.body:
            if isinstance(fn, ast.FunctionDef):
                returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)]
                if len(returns) == 1:
                    value = returns[0].value
                    merged: list[str] = []
                    if isinstance(value, ast.Name):
                        # ``res = dict(...); return res`` (openai/consistency_models @ e32b69e
                        # cm/script_util.py:26-52): the one binding of the name in the function;
                        # ``res.update(diffusion_defaults())`` before the return merges that function's dict in
                        # (sail-sg/MDT @ 7d26c21 masked_diffusion/__init__.py:62-74; openai/guided-diffusion
                        # guided_diffusion/script_util.py:61-84 ``res.update(diffusion_defaults())``)
                        bound = [n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                                 and any(isinstance(t, ast.Name) and t.id == value.id
                                         for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
                        updates = _updates(fn, value.id)
                        value = bound[0].value if len(bound) == 1 and isinstance(bound[0], ast.Assign) \
                            and updates is not None else None
                        merged = updates or []
                    found = _dict_literal(value)
                    if found is not None and fn.name not in out:
                        out[fn.name] = [(found, shown)]
                        if merged:
                            pending[fn.name] = merged
    for name, merged in pending.items():
        if any(g not in out or g in pending for g in merged):
            del out[name]  # a merged function not read (or itself merging others): its keys are not known
            continue
        for g in merged:
            out[name].extend(out[g])
    return out


def dict_helper_options(trees: list[tuple[ast.Module, str]], decl: Any, option: Any) -> None:
    """Add to ``decl`` the options each ``helper(parser, D)`` call of the scanned modules declares.
    ``option`` is the :class:`Option` class (passed in to keep the import one-way)."""
    helpers = _helpers(trees)
    if not helpers:
        return
    returned = _returned_dicts(trees)
    for tree, shown in trees:
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.Module)):
                continue
            body = fn.body
            bound: dict[str, list[tuple[dict, str]]] = {}
            for stmt in body:
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    found = _dict_literal(stmt.value)
                    if found is not None:
                        bound[stmt.targets[0].id] = [(found, shown)]
                elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                        and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "update" \
                        and isinstance(stmt.value.func.value, ast.Name) and stmt.value.func.value.id in bound \
                        and len(stmt.value.args) == 1:
                    arg = stmt.value.args[0]
                    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id in returned:
                        bound[stmt.value.func.value.id].extend(returned[arg.func.id])
                    elif _dict_literal(arg) is not None:
                        bound[stmt.value.func.value.id].append((_dict_literal(arg), shown))  # type: ignore[arg-type]
                elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                        and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in helpers:
                    _, dict_pos = helpers[stmt.value.func.id]
                    args = stmt.value.args
                    named = args[dict_pos] if len(args) > dict_pos else None
                    if isinstance(named, ast.Name) and named.id in bound:
                        for keys, where in bound[named.id]:
                            for key, (known, value, line) in keys.items():
                                decl.add(option(key, value, known, False, f"{where}:{line}", "argparse"))
                        if "argparse" not in decl.parsers:
                            decl.parsers.append("argparse")
