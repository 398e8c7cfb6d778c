"""Values a script takes from ``sys.argv`` positions, and strings it formats from known values
(helper of :class:`preflight.script_resolve._Resolver`).

project-baize/baize-chatbot finetune.py:21-23, launched ``python finetune.py 7b 32 0.0002 ...``::

    MICRO_BATCH_SIZE = int(sys.argv[2])      # 32, from the launch line
    size = sys.argv[1]                       # "7b"
    LlamaForCausalLM.from_pretrained("decapoda-research/llama-{}-hf".format(size))

``sys.argv[k]`` (``k`` a literal >= 1) is the ``k``-th word after the script on the launch line,
as long as the script never rebinds or edits ``sys.argv`` (``sys.argv = [...]``, ``sys.argv.pop(1)``,
``del sys.argv[1]``: then nothing is said). ``"...{}...".format(a, b)`` and ``f"...{a}..."`` are
known when every part is a known string or number and the fields are plain (no attribute, index
or conversion)."""

from __future__ import annotations

import ast
import string
from typing import TYPE_CHECKING, Any, Optional

from preflight.script_index_core import Resolved

if TYPE_CHECKING:
    from preflight.script_resolve import _Resolver

_EDITS = ("pop", "remove", "insert", "append", "extend", "clear", "__setitem__", "__delitem__")
_PLAIN = (str, int, float)


def _is_argv(idx: Any, node: ast.AST) -> bool:
    """``sys.argv`` (``import sys``) or ``argv`` (``from sys import argv``)."""
    if isinstance(node, ast.Attribute) and node.attr == "argv" and isinstance(node.value, ast.Name):
        return idx.imports.get(node.value.id) == "sys"
    return isinstance(node, ast.Name) and idx.imports.get(node.id) == "sys.argv"


def _argv_edited(idx: Any) -> bool:
    cached = getattr(idx, "_argv_edited", None)
    if cached is not None:
        return bool(cached)
    edited = False
    tree = getattr(idx.script, "tree", None)
    for node in ast.walk(tree) if tree is not None else ():
        targets: list[ast.AST] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _EDITS:
            targets = [node.func.value]
        for t in targets:
            inner = t.value if isinstance(t, ast.Subscript) else t
            if _is_argv(idx, inner):
                edited = True
    idx._argv_edited = edited
    return edited


def argv_word(idx: _Resolver, expr: ast.Subscript) -> Optional[Resolved]:
    """``sys.argv[k]``: the launch line's ``k``-th word after the script, else None."""
    if not _is_argv(idx, expr.value) or not isinstance(expr.slice, ast.Constant):
        return None
    k = expr.slice.value
    if type(k) is not int or k < 1 or k > len(idx.args) or _argv_edited(idx):
        return None
    word = idx.args[k - 1]
    return Resolved(word, "cli", getattr(expr, "lineno", None), f"argv[{k}]",
                    f"sys.argv[{k}] = {word!r}, the launch line's word {k} after the script")


def _join(parts: list[Resolved], value: str, line: Optional[int]) -> Resolved:
    cli = next((p for p in parts if p.kind == "cli"), None)
    if cli is None:
        return Resolved(value, "code", line)
    return Resolved(value, "cli", line, cli.key, cli.detail)


def formatted(idx: _Resolver, expr: ast.AST, depth: int) -> Optional[Resolved]:
    """``"a{}b".format(x)`` or ``f"a{x}b"`` with every part known, else None."""
    line = getattr(expr, "lineno", None)
    parts: list[Resolved] = []
    if isinstance(expr, ast.JoinedStr):
        text = []
        for piece in expr.values:
            if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                text.append(piece.value)
                continue
            if not isinstance(piece, ast.FormattedValue) or piece.conversion != -1 or piece.format_spec is not None:
                return None
            got = idx.resolve(piece.value, depth + 1)
            if got is None or isinstance(got.value, bool) or not isinstance(got.value, _PLAIN):
                return None
            parts.append(got)
            text.append(str(got.value))
        return _join(parts, "".join(text), line) if parts else None
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "format"
            and isinstance(expr.func.value, ast.Constant) and isinstance(expr.func.value.value, str)):
        return None
    template = expr.func.value.value
    try:
        fields = [f for _, f, spec, conv in string.Formatter().parse(template) if f is not None]
        specs = [(spec, conv) for _, f, spec, conv in string.Formatter().parse(template) if f is not None]
    except ValueError:
        return None
    if any(spec or conv for spec, conv in specs) or any(f and not (f.isdigit() or f.isidentifier()) for f in fields):
        return None
    if any(isinstance(a, ast.Starred) for a in expr.args) or any(k.arg is None for k in expr.keywords):
        return None
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for node in expr.args:
        got = idx.resolve(node, depth + 1)
        if got is None or isinstance(got.value, bool) or not isinstance(got.value, _PLAIN):
            return None
        parts.append(got)
        args.append(got.value)
    for kw in expr.keywords:
        got = idx.resolve(kw.value, depth + 1)
        if got is None or isinstance(got.value, bool) or not isinstance(got.value, _PLAIN):
            return None
        parts.append(got)
        kwargs[str(kw.arg)] = got.value
    try:
        value = template.format(*args, **kwargs)
    except (IndexError, KeyError, ValueError):
        return None
    return _join(parts, value, line)


# A CUDA training job runs on Linux: ``os.name`` "posix" and ``sys.platform`` "linux" (DLLXW/baby-llama2-chinese
# pretrain.py:289 ``num_workers=0 if os.name == 'nt' else 4``). An assumption, so medium at most.
_PLATFORM = {"os.name": "posix", "sys.platform": "linux"}


def platform_value(idx: _Resolver, expr: ast.Attribute) -> Optional[Resolved]:
    """``os.name`` / ``sys.platform`` (the module imported as itself) on the Linux machine a GPU job runs on."""
    if not isinstance(expr.value, ast.Name):
        return None
    module = idx.imports.get(expr.value.id)
    value = _PLATFORM.get(f"{module}.{expr.attr}")
    if value is None:
        return None
    return Resolved(value, "code", getattr(expr, "lineno", None), None,
                    f"{module}.{expr.attr} is {value!r} on the Linux machine a CUDA job runs on (assumed)", cap="medium")

