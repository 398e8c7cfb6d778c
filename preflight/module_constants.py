"""The value of a module-level constant of the project, computed from its literals without running it.

A model's vocabulary is often the length of a symbol table the text package builds from string
constants at import time (NVIDIA/tacotron2 @ the benchmark's commit ``hparams.py:2,47`` ``from text import
symbols`` ... ``n_symbols=len(symbols)``; ``text/symbols.py:8-18`` ``_pad = '_'``, ``_letters = 'ABC...'``,
``_arpabet = ['@' + s for s in cmudict.valid_symbols]``, ``symbols = [_pad] + list(_special) +
list(_punctuation) + list(_letters) + _arpabet``; ``text/cmudict.py:6`` ``valid_symbols = [...]``: the
keithito/tacotron layout many TTS projects copy). ``constant_value(path, expr)`` evaluates ``expr`` as the
module at ``path`` would see it:

- literals (numbers, strings, lists, tuples), ``+`` of lists or strings, ``*`` of a list or string by an int,
  ``len``/``list``/``tuple``/``sorted``/``set``-free calls of those names only;
- a name the module binds once at its top level (never inside a function, loop or ``if``; never rebound,
  augmented or written by item), or imports from a project module (``from text import symbols``, a package
  ``__init__`` re-exporting ``from text.symbols import symbols``; ``from . import cmudict``);
- ``mod.name`` of a project module the file imports, and one-generator list comprehensions without
  conditions over a list it knows.

Anything else (a name bound twice, a call, a file not found or too large) is ``MISSING``. Files are read
with the project's bounded parser, never imported.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

MISSING = object()
_MAX_DEPTH = 12
_MAX_ITEMS = 10_000
_MAX_BYTES = 500_000
_ROOT_UP = 3


class _Missing(Exception):
    pass


def _parse(path: Path) -> Optional[ast.Module]:
    from preflight.local_trees import parse_project_file

    return parse_project_file(path, _MAX_BYTES)


class _ModuleRef:
    """A project module held as a value (``from text import cmudict``)."""

    def __init__(self, path: Path) -> None:
        self.path = path


def _binds(tree: ast.Module, name: str) -> bool:
    return any((isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets))
               or (isinstance(n, (ast.ImportFrom, ast.Import)) and any((a.asname or a.name) == name for a in n.names))
               for n in tree.body)


def _imported(path: Path, node: ast.ImportFrom, name: str) -> Any:
    """What ``from M import name`` binds: ``M``'s own top-level binding of ``name`` (a package ``__init__``
    re-exporting it wins over a submodule of that name, as Python's import does once the package has run),
    else the submodule ``M.name`` as a module; None when neither is a project file."""
    from preflight.local_trees import module_file

    if node.level >= 1:
        base = path.parent
        for _ in range(node.level - 1):
            base = base.parent
        roots = [base]
    else:
        roots = [path.parent, *list(path.parents)[1:_ROOT_UP + 1]]
    for root in roots:
        owner = module_file(root, node.module) if node.module else None
        sub = module_file(root, f"{node.module}.{name}" if node.module else name)
        if owner is None and sub is None:
            continue
        tree = _parse(owner) if owner is not None else None
        if owner is not None and tree is not None and _binds(tree, name):
            return ("binding", owner)
        if sub is not None:
            return _ModuleRef(sub)
        return None
    return None


class _Eval:
    def __init__(self) -> None:
        self.depth = 0

    def binding(self, path: Path, name: str) -> Any:
        """The value ``name`` holds at the top level of the module at ``path``."""
        self.depth += 1
        try:
            if self.depth > _MAX_DEPTH:
                raise _Missing("too deep")
            tree = _parse(path)
            if tree is None:
                raise _Missing("not parsed")
            bound = [n for n in tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
                     and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name]
            imported = [(n, a) for n in tree.body if isinstance(n, ast.ImportFrom)
                        for a in n.names if (a.asname or a.name) == name]
            for n in ast.walk(tree):
                stored = isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del))
                if stored and not any(n is b.targets[0] for b in bound):
                    raise _Missing("rebound")  # inside a function, a loop, a tuple target, ``+=``
                if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name \
                        and isinstance(n.ctx, (ast.Store, ast.Del)):
                    raise _Missing("written by item")
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                        and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
                    raise _Missing("changed by a method")  # ``symbols.append(...)``
            if len(bound) + len(imported) != 1:
                raise _Missing("not bound once")
            if bound:
                return self.ev(path, bound[0].value)
            node, alias = imported[0]
            if not isinstance(node, ast.ImportFrom):
                raise _Missing("import")
            target = _imported(path, node, alias.name)
            if isinstance(target, _ModuleRef):
                return target  # ``from text import cmudict``: the module itself
            if target is None or target[1] == path:
                raise _Missing("not a project module")
            return self.binding(target[1], alias.name)
        finally:
            self.depth -= 1

    def ev(self, path: Path, node: ast.AST, env: Optional[dict[str, Any]] = None) -> Any:
        env = env or {}
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
            return node.value
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.ev(path, e, env) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            return self.binding(path, node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id not in env:
            owner = self.binding(path, node.value.id)
            if isinstance(owner, _ModuleRef):
                return self.binding(owner.path, node.attr)
            raise _Missing("attribute")
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult)):
            a, b = self.ev(path, node.left, env), self.ev(path, node.right, env)
            return self.binop(node.op, a, b)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1 \
                and not node.keywords and node.func.id in ("len", "list", "tuple", "sorted"):
            value = self.ev(path, node.args[0], env)
            if not isinstance(value, (list, tuple, str)):
                raise _Missing("call")
            if node.func.id == "len":
                return len(value)
            if node.func.id == "sorted":
                try:
                    return sorted(value)
                except TypeError:
                    raise _Missing("sorted") from None
            return list(value) if node.func.id == "list" else tuple(value)
        if isinstance(node, ast.ListComp) and len(node.generators) == 1 and not node.generators[0].ifs \
                and not node.generators[0].is_async and isinstance(node.generators[0].target, ast.Name):
            seq = self.ev(path, node.generators[0].iter, env)
            if not isinstance(seq, (list, tuple, str)) or len(seq) > _MAX_ITEMS:
                raise _Missing("comprehension")
            var = node.generators[0].target.id
            return [self.ev(path, node.elt, {**env, var: item}) for item in seq]
        raise _Missing("expression")

    @staticmethod
    def binop(op: ast.operator, a: Any, b: Any) -> Any:
        if isinstance(op, ast.Add):
            if isinstance(a, (list, str, tuple)) and type(a) is type(b):
                left: Any = a  # two lists, two strings or two tuples
                if len(left) + len(b) > _MAX_ITEMS:
                    raise _Missing("too long")
                return left + b
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
                return a + b
            raise _Missing("add")
        seq, times = (a, b) if isinstance(a, (list, tuple, str)) else (b, a)
        if isinstance(seq, (list, tuple, str)) and isinstance(times, int) and not isinstance(times, bool):
            if len(seq) * max(times, 0) > _MAX_ITEMS:
                raise _Missing("too long")
            return seq * times
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
            return a * b
        raise _Missing("multiply")


def constant_value(path: Path, expr: ast.AST) -> Any:
    """The value of ``expr`` in the module at ``path`` (see the module comment), else ``MISSING``."""
    try:
        value = _Eval().ev(path, expr)
    except (_Missing, RecursionError):
        return MISSING
    if isinstance(value, _ModuleRef):
        return MISSING
    return value
