"""A project model built by a builder function that picks the class by a ``name`` key of the configuration
section splatted into it, counted: a reading of :mod:`preflight.adapters.config_object_reads` beside
:mod:`preflight.adapters.config_object_whole` (which counts ``Cls(**section)`` itself).

baofff/U-ViT @ ce55170 (and its forks, ``docs/corpus.md`` "jobs89"): ``utils.py:26-34`` ``def get_nnet(name,
**kwargs): if name == 'uvit': from libs.uvit import UViT; return UViT(**kwargs) elif name == 'uvit_t2i': ...
else: raise NotImplementedError(name)``, called as ``nnet = get_nnet(**config.nnet)`` (``utils.py:134``) with
``config.nnet = d(name='uvit', img_size=32, ..., embed_dim=1024, depth=20, ...)`` in the ml_collections file
the launch line names (``configs/imagenet256_uvit_large.py:41-54``).

Read, never imported, where the call runs (the ``if`` statements around it decided by the configuration):

- ``F(**S)``: ``F`` a module-level function of the project (no other argument), ``S`` a section of the
  configuration read from the job's config files or launch line (not values the code writes); a key the code
  assigns under it is a value not known;
- ``F``'s parameters: named ones (each taken from the section's key of that name, else its literal default)
  and one ``**kwargs`` that receives the section's other keys; no ``*args``;
- ``F``'s body: ``if``/``elif`` statements whose tests compare a parameter with literals (``name == 'uvit'``,
  ``name in ('a', 'b')``), each decided by the bound values, imports, a docstring, and in the arm taken
  ``return Cls(**kwargs)`` (literal keywords beside it are kept); ``Cls`` a class of the project imported in
  the arm, in ``F``, or at the top of ``F``'s module (or defined there);
- the class counted by ``module_params_nested.count_class`` in its own module with the project classes it
  imports: ``model.num_parameters`` and ``model.class_name``, medium.

Nothing is stated for a name the chain does not take (the ``else: raise``), a name not known, a test the
values do not decide, any other statement in the way, or a class the counter does not follow.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Callable, Optional

_HOWS = {"config file", "Hydra config", "launch line", "ml_collections config"}


def _mapping(node: ast.AST, reader: Any, modules: Any) -> Optional[tuple[dict, tuple]]:
    """(plain mapping, key path) of the section ``node`` names, read from the job's files or line: the
    section reading of :func:`config_object_whole._section`, with no key the code assigns and the
    ml_collections keys whole (:func:`_mlc_whole`)."""
    from preflight.adapters.config_object_whole import _section

    return _section(node, reader, modules, reads=_HOWS, also=frozenset({"class default"}),
                    check=lambda tree: _mlc_whole(tree, modules))


def _mlc_whole(tree: dict, modules: Any) -> bool:
    """The ml_collections keys of the section all come from one call of the config file (``d(name='uvit',
    ...)``) whose every keyword is in the section: the reading leaves out a key given no literal, which the
    class would then see as its own default. Keys set one statement at a time are not checked: False."""
    from preflight.adapters.config_object import Leaf

    from preflight.local_trees import parse_project_file

    leaves = [(k, v) for k, v in tree.items() if isinstance(v, Leaf) and v.how == "ml_collections config"]
    if not leaves:
        return True
    if len({v.file for _, v in leaves}) != 1 or any(isinstance(v, dict) for v in tree.values()):
        return False
    root = Path(str(modules.root)) if modules.root else Path(".")
    shown = Path(leaves[0][1].file)
    parsed = parse_project_file(shown if shown.is_absolute() else root / shown, 2_000_000)
    if parsed is None:
        return False
    for call in (n for n in ast.walk(parsed) if isinstance(n, ast.Call)):
        given = {(k.arg, k.value.lineno) for k in call.keywords}
        if all((k, v.line) in given for k, v in leaves):
            return all(k.arg is not None and k.arg in tree for k in call.keywords)
    return False


def _decide(test: ast.AST, bound: dict[str, Any]) -> Optional[bool]:
    """``p == 'lit'`` / ``'lit' == p`` / ``p != 'lit'`` / ``p in ('a', 'b')`` / ``and``/``or`` of those, with
    ``p`` a bound parameter; None when not decided."""
    if isinstance(test, ast.BoolOp):
        parts = [_decide(v, bound) for v in test.values]
        if any(p is None for p in parts):
            return None
        return all(parts) if isinstance(test.op, ast.And) else any(parts)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and len(test.comparators) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(left, ast.Constant) and isinstance(right, ast.Name) and isinstance(op, (ast.Eq, ast.NotEq)):
        left, right = right, left
    if not isinstance(left, ast.Name) or left.id not in bound:
        return None
    value = bound[left.id]
    try:
        lit = ast.literal_eval(right)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return None
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(lit, (str, int, bool)) and not isinstance(value, dict):
        return (value == lit) == isinstance(op, ast.Eq)
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(lit, (tuple, list, set)):
        return (value in lit) == isinstance(op, ast.In)
    return None


def _built(body: list[ast.stmt], bound: dict[str, Any], kwarg: str,
           imports: list[ast.ImportFrom]) -> Optional[tuple[str, dict[str, Any], ast.Return]]:
    """(class name, literal keywords, the return) the statements run to: ``return Cls(**kwarg, k=lit)``."""
    for i, stmt in enumerate(body):
        if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring
        if isinstance(stmt, ast.ImportFrom):
            imports.append(stmt)
        elif isinstance(stmt, ast.If):
            taken = _decide(stmt.test, bound)
            if taken is None:
                return None
            arm = stmt.body if taken else stmt.orelse
            if arm:
                return _built(arm, bound, kwarg, imports)
        elif isinstance(stmt, ast.Return):
            call = stmt.value
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and not call.args):
                return None
            splats = [k for k in call.keywords if k.arg is None]
            if len(splats) != 1 or not (isinstance(splats[0].value, ast.Name) and splats[0].value.id == kwarg):
                return None
            extra: dict[str, Any] = {}
            for k in call.keywords:
                if k.arg is not None:
                    try:
                        extra[k.arg] = ast.literal_eval(k.value)
                    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                        return None
            return call.func.id, extra, stmt
        else:
            return None
    return None


def _class_file(name: str, imports: list[ast.ImportFrom], here: Path, tree: ast.Module,
                bases: list[Path]) -> Optional[tuple[Path, ast.Module]]:
    """The module file and tree defining the class ``name``: imported by the arm, ``F`` or ``F``'s module, or
    defined in ``F``'s module."""
    from preflight.local_trees import module_file, parse_project_file

    if any(isinstance(n, ast.ClassDef) and n.name == name for n in tree.body):
        return here, tree
    tops = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    for imp in reversed([*tops, *imports]):
        alias = next((a for a in imp.names if (a.asname or a.name) == name), None)
        if alias is None or alias.name != name:
            continue
        folders = bases if not imp.level else [here.parents[imp.level - 1]]
        for folder in folders:
            found = module_file(folder, imp.module or "") if imp.module else None
            sub = parse_project_file(found, 500_000) if found is not None else None
            if found is not None and sub is not None \
                    and any(isinstance(n, ast.ClassDef) and n.name == name for n in sub.body):
                return found, sub
        return None
    return None


def _function(func: ast.expr, shown: str, modules: Any) -> Optional[tuple[str, ast.FunctionDef, Any]]:
    """The module-level function ``f`` or ``m.f`` (``import m`` at the top of the caller's module) means."""
    from preflight.local_trees import module_file

    if isinstance(func, ast.Name):
        return modules.function_in(func.id, shown)
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
        return None
    tree = next((t for s, _, t in modules.trees if s == shown), None)
    imported = [a.name for n in (tree.body if tree is not None else []) if isinstance(n, ast.Import)
                for a in n.names if (a.asname or a.name) == func.value.id]
    if len(imported) != 1:
        return None
    for base in modules.bases:
        found = module_file(base, imported[0])
        where = next((s for s, p, _ in modules.trees if found is not None and p == found.resolve()), None)
        if where is not None:
            return modules.function_in(func.attr, where)
    return None


def name_builder_count(call: ast.Call, fn: Any, modules: Any, reader: Any,
                       runs: Callable[[ast.AST], bool]) -> Optional[tuple[int, str, str]]:
    """(parameters, class, detail) of the model ``F(**section)`` builds (see the module comment), or None."""
    from preflight.adapters.config_object_whole import _forget, _inside_module, _scoped, _stores
    from preflight.adapters.module_params_imports import with_imports
    from preflight.adapters.module_params_nested import UNKNOWN, count_class

    if not (isinstance(call.func, (ast.Name, ast.Attribute)) and not call.args and len(call.keywords) == 1
            and call.keywords[0].arg is None) or not runs(call) or _inside_module(fn, modules):
        return None
    shown = next((s for s, _, t in modules.trees if fn is t or any(n is fn for n in ast.walk(t))), None)
    got = _function(call.func, shown, modules) if shown is not None else None
    if got is None or got[2] is not None:
        return None
    where, builder, _ = got
    a = builder.args
    if a.vararg is not None or a.kwarg is None or a.posonlyargs or a.kwonlyargs:
        return None
    sec = _mapping(call.keywords[0].value, reader, modules)
    if sec is None:
        return None
    section, sec_path = sec
    for stored in _stores(_scoped({sec_path[0]}, fn, reader, modules, None)):
        if stored[:len(sec_path)] == sec_path:
            if not _forget(section, stored[len(sec_path):], UNKNOWN):
                return None
        elif len(stored) < len(sec_path) and sec_path[:len(stored)] == stored:
            return None
    params = [p.arg for p in a.args]
    defaults = dict(zip(params[len(params) - len(a.defaults):], a.defaults))
    bound: dict[str, Any] = {}
    for p in params:
        if p in section:
            bound[p] = section[p]
        elif p in defaults:
            try:
                bound[p] = ast.literal_eval(defaults[p])
            except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                return None
        else:
            return None
    picked = _built(builder.body, bound, a.kwarg.arg, [])
    if picked is None:
        return None
    cls, extra, ret = picked
    imports = [n for n in ast.walk(builder) if isinstance(n, ast.ImportFrom) and n.lineno < ret.lineno]
    entry = next(((p, t) for s, p, t in modules.trees if s == where), None)
    if entry is None:
        return None
    found = _class_file(cls, imports, entry[0], entry[1], [*modules.bases, *([modules.root] if modules.root else [])])
    if found is None:
        return None
    kwargs = {k: v for k, v in section.items() if k not in bound}
    if any(k in kwargs for k in extra):
        return None
    kwargs.update(extra)
    counted = count_class(with_imports(*found), cls, kwargs)
    if counted is None:
        return None
    total, layers = counted
    picks = ", ".join(f"{p}={bound[p]!r}" for p in params)
    detail = (f"{builder.name}(**{'.'.join(map(str, sec_path))}) with {picks} returns {cls}(**{a.kwarg.arg}) "
              f"({where}:{ret.lineno}): {total:,} parameters of {len(layers)} layers")
    return total, cls, detail
