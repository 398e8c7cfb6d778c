"""The classes and functions ``from pkg import *`` binds, read from the project's files (never imported).

kuangliu/pytorch-cifar @ 49b7aa9 ``main.py:14,71``: ``from models import *`` then ``net = SimpleDLA()``, with
``models/__init__.py`` a list of ``from .dla_simple import *`` lines. The names a star import binds are the
public top-level classes and functions of that module (its literal ``__all__`` when it has one), and what its
own ``from .x import *`` / ``from .x import A`` lines bind, in order (a later line wins, as at run time).
Anything else the module binds (assignments, imports of libraries) is left out: such a name maps to nothing
here, so no project class is claimed for it.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

#: how many ``from .x import *`` files deep a package is followed
_DEPTH = 3


def _all_names(tree: ast.Module) -> Optional[set[str]]:
    """A literal ``__all__ = [...]`` of the module, else None."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            if isinstance(node.value, (ast.List, ast.Tuple)) and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.value.elts):
                return {str(e.value) for e in node.value.elts if isinstance(e, ast.Constant)}
            return set()  # computed: nothing claimed
    return None


#: what one caller's star_names calls have answered: (file, depth) -> names (see :func:`star_names`)
Memo = dict[tuple[Path, int], dict[str, tuple[Path, str]]]


def star_names(path: Path, depth: int = 0, memo: Optional[Memo] = None) -> dict[str, tuple[Path, str]]:
    """What ``from <the module at path> import *`` binds to project code: name -> (file, name there).

    ``memo`` (a dict the caller keeps for one reading of one script, never across runs) answers a
    (file, depth) asked again from it: a package whose ``__init__.py`` star-imports modules that
    star-import each other (timm: ``timm/models/__init__.py``'s ``from .x import *`` lines, 112 names
    imported from it by ``train.py``) was otherwise read again for every path to it and every name
    (93,736 calls for one audit). The answer is the same: it depends only on the files, read
    unchanged within the caller's reading. The dict returned is shared: callers must not change it."""
    if memo is None:
        memo = {}
    held = memo.get((path, depth))
    if held is None:
        held = memo[(path, depth)] = _star_names(path, depth, memo)
    return held


def _star_names(path: Path, depth: int, memo: Memo) -> dict[str, tuple[Path, str]]:
    from preflight.adapters.module_params_imports import _parse, imported_files

    tree = _parse(path)
    if tree is None or depth > _DEPTH:
        return {}
    out: dict[str, tuple[Path, str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            out[node.name] = (path, node.name)
        elif isinstance(node, ast.ImportFrom):
            files = imported_files(path, ast.Module(body=[node], type_ignores=[]))
            if not files:
                for a in node.names:  # a library import: the name is no project class any more
                    out.pop(a.asname or a.name, None)
                continue
            own = star_names(files[0], depth + 1, memo) if depth < _DEPTH else {}  # read once for every name
            for a in node.names:
                if a.name == "*":
                    out.update(own)
                else:
                    if a.name in own:
                        out[a.asname or a.name] = own[a.name]
                    else:
                        out.pop(a.asname or a.name, None)
        elif isinstance(node, (ast.Assign, ast.Import)):
            for n in ast.walk(node):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    out.pop(n.id, None)
            if isinstance(node, ast.Import):
                for a in node.names:
                    out.pop((a.asname or a.name).split(".")[0], None)
    allowed = _all_names(tree)
    if allowed is not None:
        out = {k: v for k, v in out.items() if k in allowed}
    return {k: v for k, v in out.items() if not k.startswith("_")}
