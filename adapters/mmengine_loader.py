"""OpenMMLab Python configs read like MMEngine's ``Config.fromfile``, as literals, never executed.

The ``_base_`` files first (a path or a list, relative to the file), then the file's own
module-level assignments merged into them key by key (a ``dict`` merges into a ``dict`` unless it
says ``_delete_=True``; anything else replaces), as mmengine/config/config.py does. Values are
literals, ``dict(...)``/``{...}``, lists and tuples of them, and names bound earlier in the same
file; anything else is :data:`UNKNOWN`. What the keys mean for the plan:
:mod:`preflight.adapters.mmengine_config`.
"""

from __future__ import annotations

import ast
import copy
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.literal_config import UNKNOWN, LiteralFile, Where

from preflight.adapters_api import Project
from preflight.sources import ParsedPython, read_text_limited

_MAX_BYTES = 500_000
_MAX_FILES = 48
_MAX_DEPTH = 8




def _fromfile_calls(tree: ast.AST) -> list[ast.Call]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fromfile" \
                and isinstance(node.func.value, (ast.Name, ast.Attribute)) and node.args \
                and (node.func.value.id if isinstance(node.func.value, ast.Name) else node.func.value.attr) == "Config":
            out.append(node)
    return out


def _config_loads(script: ParsedPython) -> list[ast.Call]:
    """The script's ``Config.fromfile(path)`` calls; when it has none, its calls of a function of
    a local module it imports whose body returns ``Config.fromfile`` of its first parameter
    (PixArt-alpha/PixArt-sigma train_scripts/train.py:31,284 @ 1ce521a ``config =
    read_config(args.config)``, ``diffusion/utils/misc.py:21-30`` ``config = Config.fromfile(file)``
    in a retry loop): the wrapper's call stands for the load, its first argument the path."""
    tree = script.tree
    if not isinstance(tree, ast.Module):
        return []
    if "fromfile" in script.source.text:
        direct = _fromfile_calls(tree)
        if direct:
            return direct
    from preflight.adapters.cliargs_options import _local_module

    path = Path(str(script.source.path))
    if not path.is_file():
        return []
    here = path.resolve().parent
    bases = [here, *list(here.parents)[:3]]  # a package beside the script's folder (run from the root)
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level]
    found = [_local_module(m, bases) for m in modules if m.split(".")[0] not in ("mmcv", "mmengine", "torch")]
    wrappers: set[str] = set()
    for local in [f for f in found if f is not None][:24]:
        try:
            if local.stat().st_size > _MAX_BYTES:
                continue
            text = read_text_limited(local, errors="replace")
            if "fromfile" not in text:
                continue
            module = ast.parse(text)
        except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
            continue
        for fn in module.body:
            if isinstance(fn, ast.FunctionDef) and fn.args.args and any(
                    isinstance(c.args[0], ast.Name) and c.args[0].id == fn.args.args[0].arg
                    for c in _fromfile_calls(fn)):
                wrappers.add(fn.name)
    imported = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and n.func.id in wrappers and n.func.id in imported and n.args]


def _mm_imports(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("mmengine", "mmcv"):
            return True
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in ("mmengine", "mmcv") for a in node.names):
            return True
    return False


class _File(LiteralFile):
    """One config file's module-level values, with where each key was set."""

    def __init__(self, shown: str) -> None:
        super().__init__(shown)
        self.values: dict[str, Any] = {}

    def ev_other(self, node: ast.AST, path: tuple) -> Any:
        if isinstance(node, ast.Name) and node.id in self.values:
            # a name bound earlier in the file (``pipeline=train_pipeline``): its value, and where its keys were set
            name = node.id
            for key, at in list(self.where.items()):
                if key[:1] == (name,) and len(key) > 1:
                    self.where[path + key[1:]] = at
            return copy.deepcopy(self.values[name])
        return UNKNOWN


def _merge(base: Any, child: Any, path: tuple, where: Where, child_where: Where) -> Any:
    """MMEngine's merge of a child config's value into its base's (``_delete_=True`` replaces)."""
    if isinstance(base, dict) and isinstance(child, dict) and not child.get("_delete_"):
        out = dict(base)
        for key, value in child.items():
            out[key] = _merge(base.get(key), value, (*path, key), where, child_where)
        return out
    for key in [k for k in where if k[:len(path)] == path and len(k) > len(path)]:
        del where[key]  # replaced whole: the base's keys under it are gone
    for key, at in child_where.items():
        if key[:len(path)] == path:
            where[key] = at
    if isinstance(child, dict):
        child = {k: v for k, v in child.items() if k != "_delete_"}
    return child


def read_module(tree: ast.Module, shown: str, notes: Optional[list[str]] = None) -> tuple[_File, Any]:
    """One config module's own top-level assignments (``name = value`` and ``name: T = value``; a name bound
    again: the last binding), evaluated as literals with names bound earlier in the file, and its ``_base_``
    value as written (None when it has none); not merged with the bases. A value that is not a literal is
    :data:`UNKNOWN`. ``read_base()`` blocks are noted in ``notes``."""
    own = _File(shown)
    base: Any = None
    for stmt in tree.body:
        if isinstance(stmt, ast.With) and "read_base" in ast.dump(stmt) and notes is not None:
            notes.append(f"{shown}:{stmt.lineno}: read_base() imports of other config files are not read")
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            name, value = stmt.target.id, stmt.value
        else:
            continue
        if name == "_base_":
            base = own.ev(value, ("_base_",))
            continue
        for key in [k for k in own.where if k[:1] == (name,)]:
            del own.where[key]  # bound again: the last binding counts
        own.values[name] = own.ev(value, (name,))
        own.where[(name,)] = (shown, stmt.lineno)
    return own, base


class _Loader:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.files = 0
        self.notes: list[str] = []

    def load(self, path: Path, depth: int = 0) -> Optional[tuple[dict, Where]]:
        """The merged values of ``path`` and its bases, or None when it cannot be read."""
        self.files += 1
        if depth > _MAX_DEPTH or self.files > _MAX_FILES or not path.is_file() or not self.project.may_read(path):
            return None
        try:
            shown = os.path.relpath(path, self.project.root)
        except ValueError:
            shown = str(path)
        try:
            if path.stat().st_size > _MAX_BYTES:
                self.notes.append(f"{shown}: larger than {_MAX_BYTES} bytes (not read)")
                return None
            tree = ast.parse(read_text_limited(path, _MAX_BYTES, errors="replace"))
        except (OSError, ValueError, SyntaxError, RecursionError, MemoryError) as exc:
            self.notes.append(f"{shown}: not read ({type(exc).__name__})")
            return None
        own, base = read_module(tree, shown, self.notes)
        bases = [base] if isinstance(base, str) else [b for b in base if isinstance(b, str)] \
            if isinstance(base, (list, tuple)) else []
        values: dict = {}
        where: Where = {}
        for base in bases:
            if "::" in base:
                self.notes.append(f"{shown}: _base_ {base} is a config of another package (not read)")
                values["<unread base>"] = True
                continue
            got = self.load((path.parent / base).resolve(), depth + 1)
            if got is None:
                self.notes.append(f"{shown}: _base_ {base} not found or not readable")
                values["<unread base>"] = True
                continue
            values.update(got[0])
            where.update(got[1])
        for key, value in own.values.items():
            values[key] = _merge(values.get(key), value, (key,), where, own.where)
        return values, where


def _get(values: dict, *keys: Any) -> Any:
    node: Any = values
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _set(values: dict, where: Where, keys: tuple, value: Any, at: tuple) -> None:
    node = values
    for key in keys[:-1]:
        nxt = node.get(key)
        if not isinstance(nxt, dict):
            nxt = node[key] = {}
        node = nxt
    node[keys[-1]] = value
    for key in [k for k in where if k[:len(keys)] == keys]:
        del where[key]
    where[keys] = at


def _chain(node: ast.AST) -> Optional[tuple[str, tuple]]:
    """``cfg.a.b`` -> ("cfg", ("a", "b"))."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and parts:
        return node.id, tuple(reversed(parts))
    return None
