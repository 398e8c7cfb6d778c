"""OpenMMLab Python configs read like MMEngine's ``Config.fromfile``, as literals, never executed.

The ``_base_`` files first (a path or a list, relative to the file), then the file's own
module-level assignments merged into them key by key (a ``dict`` merges into a ``dict`` unless it
says ``_delete_=True``; anything else replaces), as mmengine/config/config.py does. Values are
literals, ``dict(...)``/``{...}``, lists and tuples of them, and names bound earlier in the same
file; anything else is :data:`UNKNOWN`. What the keys mean for the plan:
:mod:`preflight.adapters.mmengine_config`.

Each semantic is MMEngine's, read in mmengine 0.10.7 ``mmengine/config/config.py`` (never imported here):

* the bases are read first and their keys pooled (:884-911; a key in two bases is an error there, :896-900:
  here the later base's value, the file then unreadable by MMEngine anyway);
* the file's code runs with ``_base_`` bound to the pooled bases (:918-923), so ``x = _base_.a.b`` (and
  ``_base_['a']``) is the bases' value of ``a.b``;
* ``{{_base_.a.b}}`` in the text is replaced by a placeholder before the file is parsed and by the bases'
  value of ``a.b`` after it ran (:753-778, :781-818, :967-969): read here as ``_base_.a.b``;
* the file's values are merged into the bases' by ``_merge_a_into_b`` (:970, :1289-1345): a ``dict`` into a
  ``dict`` key by key unless it says ``_delete_=True``, anything else replaces;
* the pure-Python style's ``with read_base(): from .x import *`` (:1030-1100, ``_parse_lazy_import``): the
  imported module's names become the file's own names (the file's later assignments rebind them, as Python
  does); a name a later statement changes other than by assignment (``x.update(...)``, ``x.a = 1``) is
  unknown.

Bounded: 8 levels of bases, 48 files, 500 kB a file; a base that is missing, unreadable, beyond the
bounds or part of a cycle is a note (its keys unknown), never an error.
"""

from __future__ import annotations

import ast
import copy
import os
import re
from pathlib import Path
from typing import Any, Callable, Optional, Tuple

from preflight.adapters.literal_config import UNKNOWN, LiteralFile, Where

from preflight.adapters_api import Project
from preflight.analysis.syntax import dotted_name, keyed_chain
from preflight.sources import ParsedPython, read_text_limited

_MAX_BYTES = 500_000
_MAX_FILES = 48
_MAX_DEPTH = 8
_BASE_REF = re.compile(r"\{\{\s*_base_\.([\w\.]+?)\s*\}\}")  # mmengine/config/config.py:769


def base_refs_as_attributes(text: str) -> str:
    """``{{_base_.a.b}}`` -> ``_base_.a.b`` (same line, so every line number stays): MMEngine puts the bases'
    value of ``a.b`` where the placeholder stood (mmengine/config/config.py:753-818)."""
    return _BASE_REF.sub(lambda m: "_base_." + m.group(1).strip("."), text)


def _base_chain(node: ast.AST) -> Optional[tuple]:
    """``_base_.a.b`` / ``_base_['a'].b`` -> ("a", "b"); None for anything else."""
    found = keyed_chain(node)
    return found[1] if found is not None and found[0].id == "_base_" and found[1] else None




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

    def __init__(self, shown: str, base: Optional[dict] = None, base_where: Optional[Where] = None) -> None:
        super().__init__(shown)
        self.values: dict[str, Any] = {}
        self.base = base or {}  # the pooled values of the file's bases: ``_base_`` while its code runs
        self.base_where: Where = base_where or {}

    def ev_other(self, node: ast.AST, path: tuple) -> Any:
        chain = _base_chain(node)
        if chain is not None:  # ``_base_.a.b``: the bases' value (mmengine/config/config.py:918-923)
            got = _get(self.base, *chain) if _has(self.base, chain) else UNKNOWN
            if got is UNKNOWN:
                return UNKNOWN
            for key, at in list(self.base_where.items()):
                if key[:len(chain)] == chain and len(key) > len(chain):
                    self.where[path + key[len(chain):]] = at
            return copy.deepcopy(got)
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


Imports = Callable[[ast.ImportFrom], Optional[Tuple[dict, Where]]]


def base_decl(tree: ast.Module, shown: str) -> Any:
    """The file's ``_base_`` value as written (a path, a list of paths), or None."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id == "_base_":
            return _File(shown).ev(stmt.value, ("_base_",))
    return None


def _touched(stmt: ast.stmt) -> set[str]:
    """Module-level names a statement changes other than by a plain ``name = value``: ``x.update(...)``,
    ``x.a = 1``, ``x['a'] = 1``, ``x += ...``, ``del x``."""
    out: set[str] = set()
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        node: ast.AST = stmt.value.func
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        if isinstance(node, ast.Name) and isinstance(stmt.value.func, ast.Attribute):
            out.add(node.id)
    if isinstance(stmt, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
        # bound or changed under a condition or a loop: not followed
        out |= {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
        for inner in ast.walk(stmt):
            if isinstance(inner, ast.stmt) and inner is not stmt:
                out |= _touched(inner)
        return out
    targets: list[ast.AST] = []
    if isinstance(stmt, ast.Assign):
        targets = [t for t in stmt.targets if not isinstance(t, ast.Name)]
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, ast.Delete):
        targets = list(stmt.targets)
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                out.add(node.id)
    return out


def _update_call(own: _File, stmt: ast.stmt) -> bool:
    """``name.update(k=v, ...)`` / ``name.update(dict(...))`` of a dict the file holds: ``ConfigDict.update``
    merges key by key, a dict into a dict, anything else replaces (mmengine/config/config.py:186-204; the
    pure-Python style's ``model.update(backbone=dict(...))``, open-mmlab/mmpretrain @ ee7f2e8
    ``mmpretrain/configs/swin_transformer/swin_base_16xb64_in1k.py:15``). False when it is not one."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "update"
            and isinstance(stmt.value.func.value, ast.Name)):
        return False
    call, name = stmt.value, stmt.value.func.value.id
    target = own.values.get(name)
    if not isinstance(target, dict) or len(call.args) > 1:
        return False
    other: Any = {}
    if call.args:
        other = own.ev(call.args[0], (name,))
        if not isinstance(other, dict):
            return False
    for kw in call.keywords:
        if kw.arg is None:
            return False
        other[kw.arg] = own.keyword(kw.arg, kw.value, (name,))

    def update(into: dict, more: dict, path: tuple) -> None:
        for key, value in more.items():
            if isinstance(into.get(key), dict) and isinstance(value, dict):
                update(into[key], value, (*path, key))
                continue
            into[key] = value
            for at in [k for k in own.where if k[:len(path) + 1] == (*path, key) and len(k) > len(path) + 1]:
                if not _has(own.values, at):
                    del own.where[at]  # replaced: a key that was under the old value is gone

    update(target, other, (name,))
    return True


def read_module(tree: ast.Module, shown: str, notes: Optional[list[str]] = None, base: Optional[dict] = None,
                base_where: Optional[Where] = None, imports: Optional[Imports] = None) -> tuple[_File, Any]:
    """One config module's own top-level assignments (``name = value`` and ``name: T = value``; a name bound
    again: the last binding), evaluated as literals with names bound earlier in the file and ``_base_.x``
    read from ``base`` (the pooled values of its bases), and its ``_base_`` value as written (None when it
    has none); not merged with the bases. A value that is not a literal is :data:`UNKNOWN`. The names a
    ``with read_base():`` block imports come from ``imports`` (a module's values and where each was set);
    without it the block is noted in ``notes``."""
    own = _File(shown, base, base_where)
    decl: Any = None
    for stmt in tree.body:
        if isinstance(stmt, ast.With) and any(isinstance(i.context_expr, ast.Call)
                                              and dotted_name(i.context_expr.func) in ("read_base", "mmengine.config.read_base")
                                              for i in stmt.items):
            for inner in stmt.body:
                got = imports(inner) if imports is not None and isinstance(inner, ast.ImportFrom) else None
                if got is None:
                    if notes is not None:
                        notes.append(f"{shown}:{inner.lineno}: a read_base() import not read")
                    continue
                values, where = got
                assert isinstance(inner, ast.ImportFrom)
                names = [(a.name, a.asname or a.name) for a in inner.names]
                if names == [("*", "*")]:
                    names = [(k, k) for k in values if not k.startswith("_")]
                for name, bound in names:
                    for key in [k for k in own.where if k[:1] == (bound,)]:
                        del own.where[key]
                    if name not in values:
                        own.values[bound] = UNKNOWN
                        continue
                    own.values[bound] = copy.deepcopy(values[name])
                    for key, at in where.items():
                        if key[:1] == (name,):
                            at_key: tuple = (bound, *key[1:])
                            own.where[at_key] = at
            continue
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            name, value = stmt.target.id, stmt.value
        else:
            if _update_call(own, stmt):
                continue
            for name in _touched(stmt) & set(own.values):
                own.values[name] = UNKNOWN  # changed in place: not followed
            continue
        if name == "_base_":
            decl = own.ev(value, ("_base_",))
            continue
        for key in [k for k in own.where if k[:1] == (name,)]:
            del own.where[key]  # bound again: the last binding counts
        own.values[name] = own.ev(value, (name,))
        own.where[(name,)] = (shown, stmt.lineno)
    return own, decl


class _Loader:
    def __init__(self, project: Project) -> None:
        self.project = project
        self.files = 0
        self.notes: list[str] = []
        self.open: list[Path] = []  # the files being read (a base that is one of them: a cycle)

    def load(self, path: Path, depth: int = 0) -> Optional[tuple[dict, Where]]:
        """The merged values of ``path`` and its bases, or None when it cannot be read."""
        self.files += 1
        if path in self.open:
            self.notes.append(f"{path.name}: inherits from itself (a cycle of _base_ files; not read again)")
            return None
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
            tree = ast.parse(base_refs_as_attributes(read_text_limited(path, _MAX_BYTES, errors="replace")))
        except (OSError, ValueError, SyntaxError, RecursionError, MemoryError) as exc:
            self.notes.append(f"{shown}: not read ({type(exc).__name__})")
            return None
        self.open.append(path)
        try:
            return self._merged(path, tree, shown, depth)
        finally:
            self.open.pop()

    def _merged(self, path: Path, tree: ast.Module, shown: str, depth: int) -> tuple[dict, Where]:
        base = base_decl(tree, shown)
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
            values.update(got[0])  # pooled (mmengine/config/config.py:896-911)
            where.update(got[1])

        def imports(node: ast.ImportFrom) -> Optional[tuple[dict, Where]]:
            """``from ..x.y import *`` inside ``read_base()``: the module file relative to this one."""
            if not node.level or not node.module:
                values["<unread base>"] = True  # another package's config (``from mmdet.configs.x import *``)
                return None
            folder = path.parent
            for _ in range(node.level - 1):
                folder = folder.parent
            got = self.load((folder / (node.module.replace(".", "/") + ".py")).resolve(), depth + 1)
            if got is None or got[0].get("<unread base>"):
                values["<unread base>"] = True
                return None
            return got

        own, _decl = read_module(tree, shown, self.notes, values, where, imports)
        for key, value in own.values.items():
            values[key] = _merge(values.get(key), value, (key,), where, own.where)
        return values, where


def _has(values: dict, keys: tuple) -> bool:
    node: Any = values
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            return False
        node = node[key]
    return True


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
