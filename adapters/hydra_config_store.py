"""Hydra ConfigStore entries registered in Python, read statically (used by
:mod:`preflight.adapters.hydra_added_keys`; nothing is imported or run).

A Hydra app may name, in its defaults list, configs that only exist once the project's code has run:
``cs = ConfigStore.instance(); cs.store(name="base_config", node=TrainerConfig)`` and
``cs.store(group="accelerator", name="deepspeed", node=DeepSpeedAcceleratorConfig)``, the nodes being
dataclasses (structured configs). yuvalkirstain/PickScore @ 2fc5a8d: ``trainer/conf/config.yaml``'s
``defaults: [base_config, _self_]``, ``trainer/configs/__init__.py:6`` stores ``TrainerConfig`` whose
``defaults`` field (a Python list, ``trainer/configs/configs.py:77-85``) chooses ``accelerator: deepspeed``,
``dataset: clip``, ...; each group option is stored in its package's ``__init__.py``. Hydra cannot
compose that without the code; here each ``X.store(name=..., node=C[, group=...])`` call of a project
file that mentions ``ConfigStore`` is read, and ``C`` (a class of that module or imported from a
project module) turned into a plain mapping from its annotated fields and its bases' fields:
literals, ``MISSING`` (``???``), ``II("key")`` (``${key}``), ``field(default=...)``,
``field(default_factory=lambda: ...)`` over literals or module-level names bound to literals, and
nested dataclass instances (``DeepSpeedConfig()``, with their keyword arguments). A field whose default
is anything else (an enum of a library, a call) is left out: the config files' values still merge
over it, and the plan treats it as unknown. The mappings are registered in hydra-core's ConfigStore
only while preflight composes (:func:`preflight.adapters.hydra_core_compose.stored_nodes`).
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional, cast

from preflight.local_trees import parse_small_file
from preflight.sources import read_text_limited

_SKIP_DIRS = {".git", ".venv", "venv", "env", "node_modules", "__pycache__", "site-packages", ".tox"}
_MAX_FILES = 3000
_MAX_BYTES = 500_000
_DEPTH = 8
_UNKNOWN = object()

Entry = tuple[Optional[str], str, dict]  # group, name, node


def _parse(path: Path) -> Optional[ast.Module]:
    return parse_small_file(path, _MAX_BYTES)  # the shared parse cache: rules and adapters read these modules too


class _Modules:
    """Project modules by dotted name, parsed once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.trees: dict[Path, Optional[ast.Module]] = {}

    def tree(self, path: Path) -> Optional[ast.Module]:
        if path not in self.trees:
            self.trees[path] = _parse(path)
        return self.trees[path]

    def module(self, dotted: str, here: Path, level: int) -> Optional[Path]:
        base = here.parent
        for _ in range(max(level - 1, 0)):
            base = base.parent
        parts = dotted.split(".") if dotted else []
        roots = [base] if level else [here.parent, self.root, *(p for p in self.root.iterdir() if p.is_dir())]
        for start in roots:
            target = start.joinpath(*parts) if parts else start
            for candidate in (target.with_suffix(".py") if parts else None, target / "__init__.py"):
                if candidate is not None and candidate.is_file():
                    return candidate
        return None

    def lookup(self, name: str, path: Path, depth: int = 0) -> Optional[tuple[ast.AST, Path]]:
        """The top-level class or assigned value ``name`` of the module at ``path``, following
        ``from X import name``."""
        tree = self.tree(path)
        if tree is None or depth > _DEPTH:
            return None
        found: Optional[tuple[ast.AST, Path]] = None
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                found = (node, path)
            elif (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)) \
                    or (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                        and node.target.id == name and node.value is not None):
                found = (cast(ast.AST, node.value), path)
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        other = self.module(node.module or "", path, node.level)
                        got = self.lookup(alias.name, other, depth + 1) if other is not None else None
                        if got is not None:
                            found = got
        return found


class _Reader:
    def __init__(self, modules: _Modules) -> None:
        self.m = modules

    def value(self, expr: Optional[ast.expr], path: Path, depth: int = 0) -> Any:
        """The config value of a field default; ``_UNKNOWN`` when not read."""
        if depth > _DEPTH:
            return _UNKNOWN
        if expr is None:
            return "???"
        if isinstance(expr, ast.Constant):
            return expr.value
        if isinstance(expr, (ast.List, ast.Tuple)):
            items = [self.value(e, path, depth + 1) for e in expr.elts]
            return _UNKNOWN if any(i is _UNKNOWN for i in items) else items
        if isinstance(expr, ast.Dict):
            out = {}
            for k, v in zip(expr.keys, expr.values):
                key = self.value(k, path, depth + 1) if k is not None else _UNKNOWN
                val = self.value(v, path, depth + 1)
                if not isinstance(key, (str, int)) or val is _UNKNOWN:
                    return _UNKNOWN
                out[key] = val
            return out
        if isinstance(expr, ast.Name):
            if expr.id == "MISSING":
                return "???"
            got = self.m.lookup(expr.id, path)
            if got is None or isinstance(got[0], ast.ClassDef):
                return _UNKNOWN
            return self.value(got[0], got[1], depth + 1)  # type: ignore[arg-type]
        if isinstance(expr, ast.Lambda):
            return self.value(expr.body, path, depth + 1)
        if isinstance(expr, ast.Call):
            return self.call(expr, path, depth)
        return _UNKNOWN

    def call(self, call: ast.Call, path: Path, depth: int) -> Any:
        func = call.func.id if isinstance(call.func, ast.Name) else (
            call.func.attr if isinstance(call.func, ast.Attribute) else "")
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        if func in ("II", "SI") and len(call.args) == 1 and isinstance(call.args[0], ast.Constant) \
                and isinstance(call.args[0].value, str):
            text = call.args[0].value
            return "${" + text + "}" if func == "II" else text
        if func == "field":
            if "default" in kw:
                return self.value(kw["default"], path, depth + 1)
            factory = kw.get("default_factory")
            if isinstance(factory, ast.Name) and factory.id in ("list", "dict"):
                return [] if factory.id == "list" else {}
            if isinstance(factory, ast.Name):  # ``field(default_factory=OtherConfig)``
                factory = ast.Call(func=factory, args=[], keywords=[])
            return self.value(factory, path, depth + 1) if factory is not None else _UNKNOWN
        if isinstance(call.func, ast.Name) and not call.args:
            got = self.m.lookup(call.func.id, path)
            if got is not None and isinstance(got[0], ast.ClassDef):
                node = self.dataclass(got[0], got[1], depth + 1)
                if node is None:
                    return _UNKNOWN
                for key, expr in kw.items():
                    val = self.value(expr, path, depth + 1)
                    if val is _UNKNOWN:
                        node.pop(key, None)
                    else:
                        node[key] = val
                return node
        return _UNKNOWN

    def dataclass(self, cls: ast.ClassDef, path: Path, depth: int = 0) -> Optional[dict]:
        """The mapping of a dataclass's fields (its project bases' first), None when not a dataclass."""
        if depth > _DEPTH or not any("dataclass" in ast.unparse(d) for d in cls.decorator_list):
            return None
        out: dict = {}
        for base in cls.bases:
            if isinstance(base, ast.Name):
                got = self.m.lookup(base.id, path)
                if got is not None and isinstance(got[0], ast.ClassDef):
                    out.update(self.dataclass(got[0], got[1], depth + 1) or {})
        for stmt in cls.body:
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                continue
            if "ClassVar" in ast.unparse(stmt.annotation):
                continue
            val = self.value(stmt.value, path, depth + 1)
            if val is _UNKNOWN:
                out.pop(stmt.target.id, None)
            else:
                out[stmt.target.id] = val
        return out


def _store_calls(tree: ast.Module) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "store" and any(k.arg == "node" for k in n.keywords)
            and any(k.arg == "name" for k in n.keywords)]


def config_store_entries(root: Path) -> list[Entry]:
    """(group or None, name, mapping) of each ConfigStore entry of the project under ``root``
    whose node is read (module docstring)."""
    modules = _Modules(root)
    reader = _Reader(modules)
    out: list[Entry] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for fname in sorted(files):
            if not fname.endswith(".py"):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return out
            path = Path(folder) / fname
            try:
                if path.stat().st_size > _MAX_BYTES:
                    continue
                text = read_text_limited(str(path), errors="replace")
            except OSError:
                continue
            if "ConfigStore" not in text or ".store(" not in text:
                continue
            tree = modules.tree(path)
            for call in _store_calls(tree) if tree is not None else []:
                kw = {k.arg: k.value for k in call.keywords if k.arg}
                name = reader.value(kw["name"], path)
                group = reader.value(kw["group"], path) if "group" in kw else None
                if not isinstance(name, str) or not (group is None or isinstance(group, str)) or "package" in kw:
                    continue
                node_expr = kw["node"]
                node: Any = _UNKNOWN
                if isinstance(node_expr, ast.Name):
                    got = modules.lookup(node_expr.id, path)
                    if got is not None and isinstance(got[0], ast.ClassDef):
                        node = reader.dataclass(got[0], got[1])
                    elif got is not None:
                        node = reader.value(got[0], got[1])  # type: ignore[arg-type]
                else:
                    node = reader.value(node_expr, path)
                if isinstance(node, dict):
                    out.append((group, name, node))
    return out


def project_entries(project: Any) -> list[Entry]:
    """:func:`config_store_entries` of the project's root (cached)."""
    cache = project.cache.setdefault("hydra.config_store_entries", [])
    if not cache:
        cache.append(config_store_entries(Path(project.root)))
    return list(cache[0])


def stored_name(project: Any, message: str) -> Optional[str]:
    """The config Hydra could not load (``Could not load 'base_config'``, ``Could not find
    'accelerator/deepspeed'``) when a ConfigStore entry of the project has that name; else None."""
    import re

    found = re.search(r"Could not (?:load|find) '([^']+)'", message)
    if found is None:
        return None
    group, _, name = found.group(1).rpartition("/")
    for g, n, _ in project_entries(project):
        if n == name and (g or "") == group:
            return found.group(1)
    return None
