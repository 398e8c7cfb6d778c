"""Shared by PF316 and PF319: the DataLoader calls of a script and the project class of their dataset."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Iterator, Optional

if TYPE_CHECKING:
    from preflight.sources import ParsedPython


def kw(call: ast.Call, name: str) -> Optional[ast.expr]:
    return next((k.value for k in call.keywords if k.arg == name), None)


def loaders(tree: ast.Module) -> Iterator[ast.Call]:
    """``DataLoader(...)`` calls (any qualification)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name == "DataLoader":
                yield node


def dataset_call(loader: ast.Call, tree: ast.Module) -> Optional[ast.Call]:
    """The ``Cls(...)`` call the loader's dataset is built by: directly, or a name assigned it once."""
    arg = loader.args[0] if loader.args else kw(loader, "dataset")
    if isinstance(arg, ast.Name):
        found = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == arg.id]
        arg = found[0] if len(found) == 1 else None
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name):
        return arg
    return None


def text_of(script: ParsedPython) -> str:
    return (script.text if script.text is not None else script.source.text) or ""


class ProjectClasses:
    """The classes of the job's Python files by name, built on first use."""

    def __init__(self, scripts: list[ParsedPython]) -> None:
        self._scripts = scripts
        self._by_name: Optional[dict[str, list[tuple[ParsedPython, ast.ClassDef]]]] = None

    def unique(self, name: str) -> Optional[tuple[ParsedPython, ast.ClassDef]]:
        """The one class of that name in the job's files; None when there is none or several."""
        if self._by_name is None:
            self._by_name = {}
            for s in self._scripts:
                for node in ast.walk(s.tree):
                    if isinstance(node, ast.ClassDef):
                        self._by_name.setdefault(node.name, []).append((s, node))
        found = self._by_name.get(name, [])
        return found[0] if len(found) == 1 else None
