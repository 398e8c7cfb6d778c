"""A model configuration built by a function of literal attribute writes, picked from a table by name.

The shape of jeonsworld/ViT-pytorch and its many forks (TransFG, TransUNet, ...): ``models/configs.py``
defines ``get_b16_config()`` as ``config = ml_collections.ConfigDict()``, ``config.hidden_size = 768``,
``config.transformer = ml_collections.ConfigDict()``, ``config.transformer.num_layers = 12``, ...,
``return config`` (``get_b32_config()`` starts from ``get_b16_config()`` and changes one entry);
``models/modeling.py:339`` binds ``CONFIGS = {'ViT-B_16': configs.get_b16_config(), ...}``; the training
script picks ``config = CONFIGS[args.model_type]`` (``train.py:60``) and hands it to the model class.

``config_table_entry`` reads that entry as the plain mapping the model's ``__init__`` reads
(``config.hidden_size``, ``config.transformer["num_layers"]``, ``config.patches.get("grid")``), for the
module counter. Read, never run: a function is followed only when every statement is one of ``x =
ConfigDict()`` (ml_collections, easydict, ``types.SimpleNamespace``, ``dict()``, ``{}``, with a literal
dict or literal keywords), ``x = other()`` of another such function, ``x.a.b = literal`` / ``x["a"] =
literal`` (or a new empty config), ``del x.a.b`` and ``return x``; anything else (a loop, a call, a value
computed from an argument) makes the entry unknown. A table entry that is not such a call is unknown too.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any, Optional

#: the constructors of attribute-access configs, by the module they come from
_CONFIG_TYPES = {"ml_collections": {"ConfigDict", "FrozenConfigDict"},
                 "ml_collections.config_dict": {"ConfigDict", "FrozenConfigDict"},
                 "easydict": {"EasyDict"}, "types": {"SimpleNamespace"}}
_DEPTH = 4


class _NotBuilt(Exception):
    """A statement or value the reader does not follow."""


def _config_ctors(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(dotted names, bare names) that construct an empty attribute config in ``tree``: ``ml_collections.
    ConfigDict`` after ``import ml_collections``, ``ConfigDict``/``edict`` after ``from easydict import
    EasyDict as edict``; ``dict`` always."""
    dotted: set[str] = set()
    bare: set[str] = {"dict"}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                for module, classes in _CONFIG_TYPES.items():
                    if a.name == module:
                        dotted |= {f"{a.asname or a.name}.{c}" for c in classes}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in _CONFIG_TYPES:
            bare |= {a.asname or a.name for a in node.names if a.name in _CONFIG_TYPES[node.module]}
    return dotted, bare


def _literal(node: ast.AST) -> Any:
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise _NotBuilt("not a literal") from None
    if isinstance(value, (set, frozenset, complex, bytes)):
        raise _NotBuilt("not a plain literal")
    return value


class _Reader:
    def __init__(self, path: Path, tree: ast.Module) -> None:
        from preflight.analysis.syntax import dotted_name

        self.path = path
        self.tree = tree
        self.dotted_name = dotted_name
        self.ctors = _config_ctors(tree)
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

    def new_config(self, node: ast.AST) -> Optional[dict[str, Any]]:
        """``ConfigDict()`` / ``ConfigDict({'size': (16, 16)})`` / ``EasyDict(a=1)`` / ``{}``: a fresh mapping;
        None when ``node`` is no such constructor."""
        if isinstance(node, ast.Dict):
            out = _literal(node)
            if not isinstance(out, dict):
                raise _NotBuilt("dict")
            return out
        if not isinstance(node, ast.Call):
            return None
        name = self.dotted_name(node.func) or ""
        dotted, bare = self.ctors
        if name not in dotted and not (isinstance(node.func, ast.Name) and name in bare):
            return None
        out = {}
        if len(node.args) == 1:
            given = _literal(node.args[0])
            if not isinstance(given, dict):
                raise _NotBuilt("config from a non-mapping")
            out.update(given)
        elif node.args:
            raise _NotBuilt("arguments")
        for kw in node.keywords:
            if kw.arg is None:
                raise _NotBuilt("**")
            out[kw.arg] = _literal(kw.value)
        return out

    def build(self, fn: ast.FunctionDef, depth: int) -> dict[str, Any]:
        if depth > _DEPTH or fn.decorator_list or fn.args.args or fn.args.posonlyargs or fn.args.kwonlyargs \
                or fn.args.vararg or fn.args.kwarg:
            raise _NotBuilt("function")
        env: dict[str, dict[str, Any]] = {}
        for i, stmt in enumerate(fn.body):
            if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                    and isinstance(stmt.value.value, str):
                continue  # the docstring
            if isinstance(stmt, ast.Return):
                if isinstance(stmt.value, ast.Name) and stmt.value.id in env:
                    return env[stmt.value.id]
                raise _NotBuilt("return")
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                self.assign(stmt.targets[0], stmt.value, env, depth)
            elif isinstance(stmt, ast.Delete) and len(stmt.targets) == 1:
                parent, key = self.slot(stmt.targets[0], env)
                if key not in parent:
                    raise _NotBuilt("del of a missing key")
                del parent[key]
            else:
                raise _NotBuilt(type(stmt).__name__)
        raise _NotBuilt("no return")

    def assign(self, target: ast.expr, value: ast.expr, env: dict[str, dict[str, Any]], depth: int) -> None:
        if isinstance(target, ast.Name):
            made = self.new_config(value)
            if made is None:
                made = self.called(value, depth)
            env[target.id] = made
            return
        parent, key = self.slot(target, env)
        made = self.new_config(value)
        parent[key] = made if made is not None else _literal(value)

    def called(self, value: ast.expr, depth: int) -> dict[str, Any]:
        """``config = get_b16_config()``: a copy of what another builder of this module returns."""
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and not value.args \
                and not value.keywords and value.func.id in self.functions:
            return copy.deepcopy(self.build(self.functions[value.func.id], depth + 1))
        raise _NotBuilt("a value that is no config")

    def slot(self, target: ast.expr, env: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], str]:
        """The mapping and key ``x.a.b`` / ``x["a"]["b"]`` writes to (every step before the last exists)."""
        path: list[str] = []
        node: ast.AST = target
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            if isinstance(node, ast.Attribute):
                path.append(node.attr)
            elif isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                path.append(node.slice.value)
            else:
                raise _NotBuilt("subscript")
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in env or not path:
            raise _NotBuilt("target")
        path.reverse()
        held: Any = env[node.id]
        for step in path[:-1]:
            held = held.get(step) if isinstance(held, dict) else None
            if not isinstance(held, dict):
                raise _NotBuilt("a step that is no config")
        return held, path[-1]


def built_config(path: Path, tree: ast.Module, function: str) -> Optional[dict[str, Any]]:
    """What the config function ``function`` of ``tree`` (the module at ``path``) returns, as a plain nested
    mapping; None when it is not such a function (see the module comment)."""
    reader = _Reader(path, tree)
    fn = reader.functions.get(function)
    if fn is None:
        return None
    try:
        return reader.build(fn, 0)
    except (_NotBuilt, RecursionError):
        return None


def _builder_of(path: Path, tree: ast.Module, call: ast.expr) -> Optional[tuple[Path, ast.Module, str]]:
    """The module and function of a table entry ``configs.get_b16_config()`` (``import models.configs as
    configs`` / ``from models import configs`` / ``from . import configs``) or ``get_b16_config()`` (defined in
    ``tree`` or imported by name from a project module)."""
    from preflight.adapters.module_params_imports import _parse, imported_files

    if not isinstance(call, ast.Call) or call.args or call.keywords:
        return None
    func = call.func
    if isinstance(func, ast.Name):
        if any(isinstance(n, ast.FunctionDef) and n.name == func.id for n in tree.body):
            return path, tree, func.id
        owner, wanted = func.id, func.id
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        owner, wanted = func.value.id, func.attr
    else:
        return None
    for node in tree.body:
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        alias = next((a for a in node.names if (a.asname or a.name) == owner), None)
        if alias is None:
            continue
        files = imported_files(path, ast.Module(body=[node], type_ignores=[]))
        if isinstance(func, ast.Name):  # ``from models.configs import get_b16_config``
            candidates = files
        else:  # ``configs``: the module file named by the import
            tail = alias.name.split(".")[-1]
            candidates = [f for f in files if f.stem == tail or (f.name == "__init__.py" and f.parent.name == tail)]
        for f in candidates:
            other = _parse(f)
            if other is not None and any(isinstance(n, ast.FunctionDef) and n.name == wanted for n in other.body):
                return f, other, wanted
        return None
    return None


def config_table_entry(path: Path, tree: ast.Module, table: str, key: Any) -> Optional[dict[str, Any]]:
    """Entry ``key`` of ``TABLE = {'ViT-B_16': configs.get_b16_config(), ...}``, bound once at the top of
    ``tree`` (the module at ``path``), built by its config function; None when any step is not followed."""
    bound = [n for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
             and any(isinstance(t, ast.Name) and t.id == table
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    if len(bound) != 1 or not isinstance(bound[0], ast.Assign) or not isinstance(bound[0].value, ast.Dict) \
            or not isinstance(key, str):
        return None
    if any(isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, (ast.Store, ast.Del))
           and isinstance(n.value, ast.Name) and n.value.id == table for n in ast.walk(tree)):
        return None  # the table changed after it is bound
    hits = [v for k, v in zip(bound[0].value.keys, bound[0].value.values)
            if isinstance(k, ast.Constant) and k.value == key]
    if len(hits) != 1:
        return None
    found = _builder_of(path, tree, hits[0])
    if found is None:
        return None
    return built_config(*found)
