"""A function of the project imported by the analysed file, read from its module (one level).

``from dataset import build_loader`` / ``from .data import get_dataloader`` / ``import data``
then ``data.get_dataloader(...)``: the module is looked for beside the file and in up to
two folders above it (a script in ``scripts/`` importing ``src.data``), as a ``.py`` file or
a package (its ``__init__.py`` and the modules beside it, which is where a package's
re-exported function is defined). Read-only and bounded: at most :data:`MAX_MODULES` files
of at most :data:`MAX_BYTES` each per imported name; a file that cannot be read or parsed is
skipped. Nothing is imported or run.

Results that depend on another file must not be cached under the analysed file's content
alone: every read is noted (:func:`reads_other_files`), and the engine does not store a file's
result when its analysis read another module.
"""

from __future__ import annotations

import ast
import contextlib
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

MAX_MODULES = 16
MAX_BYTES = 1 << 20
_UP = 2  # folders above the file's own searched for the module
_local = threading.local()


def begin_reads() -> None:
    """Start noting reads of other modules for the file about to be analysed (this thread)."""
    _local.read = False


def reads_other_files() -> bool:
    """Whether the analysis since :func:`begin_reads` read another module of the project."""
    return bool(getattr(_local, "read", False))


def _import_of(ctx: FileContext, call: ast.Call) -> Optional[tuple[str, int, str]]:
    """(module, level, function name) a call's callee is imported as, from a module-level import."""
    func = call.func
    for node in ctx.tree.body:
        if isinstance(node, ast.ImportFrom) and isinstance(func, ast.Name):
            for alias in node.names:
                if (alias.asname or alias.name) == func.id and alias.name != "*":
                    return node.module or "", node.level, alias.name
        elif isinstance(node, ast.Import) and isinstance(func, ast.Attribute):
            dotted = _dotted(func.value)
            if dotted is None:
                continue
            for alias in node.names:
                if (alias.asname or alias.name) == dotted:
                    return alias.name, 0, func.attr
    return None


def _dotted(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def _candidates(base: Path, module: str) -> list[Path]:
    target = base.joinpath(*module.split(".")) if module else base
    single = target.with_suffix(".py") if module else None
    if single is not None and single.is_file():
        return [single]
    init = target / "__init__.py"
    if init.is_file():
        return [init, *sorted(f for f in target.glob("*.py") if f.name != "__init__.py")]
    return []


def imported_function(ctx: FileContext, call: ast.Call) -> Optional[tuple[FileContext, ast.FunctionDef, str]]:
    """The module-level ``def`` a call of an imported project function runs, with the context of
    its module and its path as the user sees it; None when it is not found in the project."""
    found = _import_of(ctx, call)
    if found is None:
        return None
    module, level, name = found
    return _search(ctx, "project-imports", module, level, name, lambda path: _def_in(path, name, ctx))


def _search(ctx: FileContext, cache_name: str, module: str, level: int, name: str,
            find: Callable[[Path], Optional[tuple]]) -> Any:
    """``find`` on each file that ``from <module> import <name>`` (``level`` dots) may name in the
    project: beside the analysed file, then up to :data:`_UP` folders up; the first answer, cached
    per analysed file. A module found without the name answers None."""
    cache: dict = ctx.cached(cache_name, dict)
    key = (module, level, name)
    if key in cache:
        return cache[key]
    cache[key] = None
    try:
        here = Path(ctx.parsed.source.path).resolve().parent
    except (OSError, RuntimeError, ValueError):
        return None
    if level:
        bases = [here.parents[level - 2]] if level >= 2 and len(here.parents) >= level - 1 else [here]
    else:
        bases = [here, *list(here.parents)[:_UP]]
    for base in bases:
        files = _candidates(base, module)[:MAX_MODULES]
        for path in files:
            got = find(path)
            if got is not None:
                cache[key] = got
                return got
        if files:
            return None  # the module is this one; the name is not defined in it
    return None


def _def_in(path: Path, name: str, ctx: FileContext) -> Optional[tuple[FileContext, ast.FunctionDef, str]]:
    got = _parse_other(path, ctx, f"def {name}")
    if got is None:
        return None
    other, display = got
    for node in other.tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return other, node, display
    return None


def _parse_other(path: Path, ctx: FileContext, needle: str) -> Optional[tuple[FileContext, str]]:
    """``path`` parsed as a project module (read-only, bounded), when its text holds ``needle``."""
    from preflight.analysis.context import FileContext
    from preflight.sources import InputRefused, SourceText, parse_python, read_text_limited

    try:
        if path.resolve() == Path(ctx.parsed.source.path).resolve():
            return None
        text = read_text_limited(path, MAX_BYTES, errors="replace")
    except (OSError, InputRefused, RuntimeError, ValueError):
        return None
    _local.read = True
    if needle not in text:
        return None
    display = str(path)
    with contextlib.suppress(ValueError, OSError):
        display = os.path.relpath(path, Path(ctx.parsed.source.path).resolve().parent)
    src = SourceText(path=path, display=display, kind="python", raw=text.encode(), text=text)
    try:
        parsed = parse_python(src)
    except (RecursionError, MemoryError, ValueError):
        return None
    if not hasattr(parsed, "tree"):
        return None
    return FileContext(parsed), display  # type: ignore[arg-type]


def imported_class(ctx: FileContext, name: str) -> Optional[tuple[FileContext, ast.ClassDef, str]]:
    """The module-level ``class`` that ``name``, imported by a module-level ``from M import name``
    of the analysed file, is in the project (one level, bounded like :func:`imported_function`)."""
    found = _import_of(ctx, ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[], keywords=[]))
    if found is None:
        return None
    module, level, real = found

    def find(path: Path) -> Optional[tuple[FileContext, ast.ClassDef, str]]:
        got = _parse_other(path, ctx, f"class {real}")
        if got is None:
            return None
        other, display = got
        for node in other.tree.body:
            if isinstance(node, ast.ClassDef) and node.name == real:
                return other, node, display
        return None

    return _search(ctx, "project-imported-classes", module, level, real, find)


def sibling_modules(ctx: FileContext, needle: str) -> list[tuple[FileContext, str]]:
    """The other ``.py`` files of the analysed file's folder whose text holds ``needle``, parsed
    (at most :data:`MAX_MODULES` files, sorted by name; none for a file given on stdin)."""
    cache: dict = ctx.cached("project-siblings", dict)
    if needle in cache:
        return cache[needle]
    out: list[tuple[FileContext, str]] = []
    cache[needle] = out
    try:
        me = Path(ctx.parsed.source.path)
        if not me.is_file():
            return out
        here = me.resolve().parent
        files = sorted(p for p in here.glob("*.py") if p.is_file())
    except (OSError, RuntimeError, ValueError):
        return out
    if len(files) > MAX_MODULES + 1:
        return out  # a folder of many scripts: which one is the model is anybody's guess
    for path in files:
        got = _parse_other(path, ctx, needle)
        if got is not None:
            out.append(got)
    return out
