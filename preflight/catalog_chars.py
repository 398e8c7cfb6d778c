"""A character-level vocabulary read from the text file the job holds (read, never run).

The char-level language-model idiom (karpathy/ng-video-lecture @ 5220142 ``gpt.py:22-27``, and its many copies):

    with open('input.txt', 'r', encoding='utf-8') as f:
        text = f.read()
    chars = sorted(list(set(text)))
    vocab_size = len(chars)

``len(chars)`` is the number of distinct characters of that file. When the path is a string the resolver knows and
the file lies beside the script (or under the directory the job runs from), it is read through
``read_text_limited`` and its distinct characters counted (``medium``: the job may run with another file there).
Refused: a path not known, a file not present (downloaded when the job runs), a text or character list bound
more than once, any other transformation of the text (``text.lower()``, a slice).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from preflight.script_index_core import Resolved

if TYPE_CHECKING:
    from preflight.script_index import ScriptIndex

_WRAPS = ("sorted", "list", "set", "tuple")


def _once(index: ScriptIndex, name: str) -> Optional[ast.expr]:
    bound = index.assigns.get(name, [])
    return bound[0] if len(bound) == 1 else None


def _opened(index: ScriptIndex, call: ast.expr) -> Optional[ast.expr]:
    """The path argument of ``open(P, ...)``."""
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "open" \
            and call.args and "open" not in index.assigns:
        mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
        if mode is None or (isinstance(mode, ast.Constant) and mode.value in ("r", "rt")):
            return call.args[0]
    return None


def _text_path(index: ScriptIndex, text: ast.expr) -> Optional[ast.expr]:
    """``open(P).read()`` or ``f.read()`` with ``f`` the one ``with open(P) as f``: P."""
    if not (isinstance(text, ast.Call) and isinstance(text.func, ast.Attribute) and text.func.attr == "read"
            and not text.args and not text.keywords):
        return None
    handle = text.func.value
    direct = _opened(index, handle)
    if direct is not None or not isinstance(handle, ast.Name):
        return direct
    if index.assigns.get(handle.id) != [None] or index.script.tree is None:
        return None
    items = [item for node in ast.walk(index.script.tree) if isinstance(node, (ast.With, ast.AsyncWith))
             for item in node.items if isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == handle.id]
    return _opened(index, items[0].context_expr) if len(items) == 1 else None


def char_vocab(index: ScriptIndex, expr: ast.Call, depth: int) -> Optional[Resolved]:
    """``len(chars)`` with ``chars = sorted(list(set(text)))`` over a text file the job holds."""
    from preflight.sources import read_text_limited

    node: Optional[ast.expr] = expr.args[0]
    if isinstance(node, ast.Name):
        node = _once(index, node.id)
    seen_set = False
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _WRAPS \
            and len(node.args) == 1 and not node.keywords and node.func.id not in index.assigns:
        seen_set = seen_set or node.func.id == "set"
        node = node.args[0]
    if not seen_set:
        return None
    text = _once(index, node.id) if isinstance(node, ast.Name) else node
    path_expr = _text_path(index, text) if text is not None else None
    path = index.resolve(path_expr, depth + 1) if path_expr is not None else None
    script = index.script.source.path
    if path is None or not isinstance(path.value, str) or script is None:
        return None
    target = Path(path.value)
    if not target.is_absolute():
        target = Path(str(script)).resolve().parent / target
    try:
        content = read_text_limited(target)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    count = len(set(content))
    detail = f"len(set(text)) of {path.value}: {count} distinct characters (read from {target.name})"
    return Resolved(count, "code", getattr(expr, "lineno", None), None, detail, cap="medium")
