"""The project's own modules parsed once per process, and their nodes listed once.

An audit follows the entry script into the modules it imports from several adapters (the
options they declare, a local optimizer, a DDP or FSDP wrapper, a DeepSpeed config helper,
the loop's shapes). Each adapter used to read, parse and ``ast.walk`` the same files again:
auditing THUDM/GLM's ``scripts/evaluate_lm.sh`` parsed its 69 modules 125 times and visited
1.2 million nodes (bench/realworld/launch_scripts.py's repositories; about 10 CPU-seconds).

:func:`parse_file` returns the same tree for a file while its stamp (inode, size,
modification time) is unchanged, so a long-running process (``preflight lsp``, ``serve``)
parses a module again once it is rewritten; a file written within the last two seconds is
parsed on every call (a write in the same timestamp tick would not change the stamp). A tree
given from the cache is recorded as read for the config cache (:mod:`preflight.config_cache`)
as if the file had been opened. The trees are shared: callers must not change them.
"""

from __future__ import annotations

import ast
import contextlib
import os
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Optional, Union

from preflight.sources import read_text_limited

_MAX_TREES = 256
_RECENT_NS = 2_000_000_000
_lock = threading.Lock()
_trees: OrderedDict[str, tuple[tuple[int, int, int], str, ast.Module]] = OrderedDict()
_nodes: OrderedDict[int, tuple[ast.AST, list[ast.AST]]] = OrderedDict()


def parse_file(path: Union[str, Path], limit: Optional[int] = None) -> ast.Module:
    """``ast.parse(read_text_limited(path, limit, errors="replace"))``, raising as they do,
    answered from the cache while the file is unchanged."""
    return source_and_tree(path, limit)[1]


def parse_small_file(path: Union[str, Path], limit: int = 2_000_000) -> Optional[ast.Module]:
    """:func:`parse_file` of a file of at most ``limit`` bytes; None for a larger file or one that
    cannot be read or parsed (a project module an adapter looks into: a guess, never an error)."""
    try:
        if os.stat(os.fspath(path)).st_size > limit:
            return None
        return parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def source_and_tree(path: Union[str, Path], limit: Optional[int] = None) -> tuple[str, ast.Module]:
    """The file's text (decoded with ``errors="replace"``) and its parse: see :func:`parse_file`."""
    full = os.path.abspath(os.fspath(path))
    st = os.stat(full)
    stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
    held = _trees.get(full)
    if held is not None and held[0] == stamp and (limit is None or st.st_size <= limit):
        from preflight.config_cache import note_opened

        note_opened(full)
        with _lock:
            if full in _trees:
                _trees.move_to_end(full)
        return held[1], held[2]
    text = read_text_limited(full, limit, errors="replace")
    tree = ast.parse(text)
    if time.time_ns() - st.st_mtime_ns >= _RECENT_NS:
        with _lock:
            _trees[full] = (stamp, text, tree)
            _trees.move_to_end(full)
            while len(_trees) > _MAX_TREES:
                _trees.popitem(last=False)
    return text, tree


#: a project module larger than this is not read for model facts (generated or vendored code)
PROJECT_FILE_BYTES = 500_000


def parse_project_file(path: Path, max_bytes: int = PROJECT_FILE_BYTES) -> Optional[ast.Module]:
    """The parse of a project file of at most ``max_bytes``, or None: absent, larger, unreadable or
    not Python (one bounded reader for the adapters that follow a script into its project)."""
    try:
        if not path.is_file() or path.stat().st_size > max_bytes:
            return None
        return parse_file(path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def module_file(folder: Path, dotted: str) -> Optional[Path]:
    """``folder/a/b.py`` or ``folder/a/b/__init__.py`` for the dotted module ``a.b``, whichever exists."""
    rel = dotted.replace(".", "/")
    for found in (folder / f"{rel}.py", folder / rel / "__init__.py"):
        if found.is_file():
            return found
    return None


def nodes_of(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` in ``ast.walk`` order, listed once per tree (the last few
    hundred trees asked about are remembered)."""
    held = _nodes.get(id(tree))
    if held is not None and held[0] is tree:
        return held[1]
    nodes = list(ast.walk(tree))
    with _lock:
        _nodes[id(tree)] = (tree, nodes)
        while len(_nodes) > _MAX_TREES:
            _nodes.popitem(last=False)
    return nodes


def clear() -> None:
    """Forget every tree (tests)."""
    with _lock:
        _trees.clear()
        _nodes.clear()


def script_and_imported_trees(project: Any, script: Any, idx: Any) -> list[tuple[ast.AST, Optional[Path]]]:
    """The script's tree (path None) and, parsed, never run, each local module it imports that the
    project may read, with its path (the module, else its package's ``__init__``)."""
    from preflight.script_parsers import _module_file

    trees: list[tuple[ast.AST, Optional[Path]]] = [(script.tree, None)]
    here = Path(str(script.source.path)).parent if script.source.path is not None else None
    for module in sorted({str(v) for v in idx.imports.values()}) if here is not None else ():
        for name in (module, module.rpartition(".")[0]):
            path = _module_file(here, name) if name and here is not None else None
            if path is not None and project.may_read(path):
                with contextlib.suppress(OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                    trees.append((parse_file(path), path))
                break
    return trees


def shown_path(path: Path, root: Optional[Path]) -> str:
    """``path`` as the project shows it: relative to ``root`` where it lies below it, else its name."""
    shown = path.name
    if root is not None:
        with contextlib.suppress(ValueError):
            shown = path.resolve().relative_to(root.resolve()).as_posix()
    return shown
