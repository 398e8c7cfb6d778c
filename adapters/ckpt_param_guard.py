"""Activation checkpointing a backbone keeps off behind a constructor parameter that defaults to False
(the Swin / mmcv shape): not a use while nothing in the project turns the parameter on.

microsoft/Swin-Transformer @ f82860b ``models/swin_transformer.py``: ``BasicLayer.__init__(...,
use_checkpoint=False)`` stores ``self.use_checkpoint = use_checkpoint`` (387-394) and ``forward`` runs
``checkpoint.checkpoint(blk, x)`` only ``if self.use_checkpoint:`` (417); ``SwinTransformer`` passes its
own ``use_checkpoint=False`` through (517, 561). Copies of that file keep the shape (ZhengPeng7/BiRefNet
@ 25cb930 ``models/backbones/swin_v1.py:344-406,505-551``, whose callers never pass the flag), and
mmcv-style backbones spell it ``with_cp=False`` / ``if self.with_cp and x.requires_grad:``
(OpenGVLab/InternImage @ 31c962d ``.../backbones/internimage.py:365-429``).

The body of each ``if`` whose test is ``self.P`` (alone or as an operand of ``and``) is blanked (its
``else`` stays) when ``P`` is a parameter of the class's ``__init__`` defaulting to ``False`` that
``__init__`` stores as ``self.P = P``, and nothing in the project can turn ``P`` on: every Python file
under the root that names ``P`` does so only as a parameter defaulting to ``False``, a keyword passing
``False``, ``P`` or ``self.P`` through, ``self.P = P``, or a read; no string names it outside a docstring
(an ``argparse`` flag, a ``getattr``) and no other file (a YAML/JSON config, a launch script, a README
command) names it in any case or spelling. Swin-Transformer's own ``models/build.py:51``
``use_checkpoint=config.TRAIN.USE_CHECKPOINT`` and InternImage's configs' ``with_cp=True`` keep it as
written (checkpointing may be on). Without a project root, or past the scan's bounds, nothing is blanked.
"""

from __future__ import annotations

import ast
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Optional

from preflight.adapters.ckpt_flag_guard import blank_spans

from preflight.sources import read_text_limited

_MAX_FILES = 4000  # files looked at under the root; past it the flag is not known to be off
_MAX_BYTES = 2_000_000
_SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv", "site-packages", ".tox"}
_TEXT_SUFFIXES = {".py", ".yaml", ".yml", ".json", ".sh", ".cfg", ".toml", ".ini", ".md", ".txt", ".rst",
                  ".slurm", ".sbatch", ".bash", ".jsonc", ".ipynb"}


def _false(node: Optional[ast.expr]) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _self_attr(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name) \
        and node.value.id == "self"


def _param_default(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> tuple[bool, bool]:
    """(``fn`` has parameter ``name``, its default is ``False``)."""
    args = fn.args
    positional = args.posonlyargs + args.args
    defaults: list[Optional[ast.expr]] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for arg, default in list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults)):
        if arg.arg == name:
            return True, _false(default)
    return False, False


def _off_params(cls: ast.ClassDef) -> set[str]:
    """Parameters of ``cls.__init__`` defaulting to False and stored as ``self.P = P``."""
    init = next((b for b in cls.body if isinstance(b, ast.FunctionDef) and b.name == "__init__"), None)
    if init is None:
        return set()
    out: set[str] = set()
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Name):
            target = node.targets[0]
            name = node.value.id
            if isinstance(target, ast.Attribute) and _self_attr(target, name) and _param_default(init, name) == (True, True):
                out.add(name)
    return out


def _position(cls: ast.ClassDef, name: str) -> int:
    """The index of ``name`` among ``__init__``'s positional parameters after ``self`` (-1: keyword-only)."""
    init = next((b for b in cls.body if isinstance(b, ast.FunctionDef) and b.name == "__init__"), None)
    if init is None:
        return -1
    names = [a.arg for a in init.args.posonlyargs + init.args.args][1:]
    return names.index(name) if name in names else -1


def _guard_reads(test: ast.expr, name: str) -> bool:
    if _self_attr(test, name):
        return True
    return isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and any(_self_attr(v, name) for v in test.values)


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def _positional_reach(call: ast.Call, positions: tuple[tuple[str, int], ...]) -> bool:
    """A call of one of the classes that may reach the parameter by position (``BasicLayer(dim, ...,
    True)``, or a ``*args`` splat)."""
    func = call.func
    called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    for cls_name, index in positions:
        if called == cls_name and index >= 0 and (
                len(call.args) > index or any(isinstance(a, ast.Starred) for a in call.args)):
            return True
    return False


def _py_keeps_off(tree: ast.AST, name: str, word: re.Pattern[str], positions: tuple[tuple[str, int], ...] = ()) -> bool:
    """Whether a parsed Python file names ``name`` only in forms that leave it off."""
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            has, off = _param_default(node, name)
            if has and not off:
                return False
        elif isinstance(node, ast.Call) and _positional_reach(node, positions):
            return False
        elif isinstance(node, ast.keyword) and node.arg == name:
            v = node.value
            if not (_false(v) or (isinstance(v, ast.Name) and v.id == name) or _self_attr(v, name)):
                return False
        elif isinstance(node, ast.Assign) and any(
                (isinstance(t, ast.Attribute) and t.attr == name) or (isinstance(t, ast.Name) and t.id == name)
                for t in node.targets):
            v = node.value
            if not (_false(v) or (isinstance(v, ast.Name) and v.id == name)):
                return False
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            t = node.target
            named = (isinstance(t, ast.Attribute) and t.attr == name) or (isinstance(t, ast.Name) and t.id == name)
            if named and not (isinstance(node, ast.AnnAssign) and _false(node.value)):
                return False
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs \
                and word.search(node.value):
            return False
    return True


def _word(name: str) -> re.Pattern[str]:
    spelled = re.escape(name).replace("_", "[-_]")
    return re.compile(rf"(?<![A-Za-z0-9_]){spelled}(?![A-Za-z0-9_])", re.I)


@lru_cache(maxsize=128)
def _off_in_project(root: str, name: str, positions: tuple[tuple[str, int], ...] = ()) -> bool:
    word = _word(name)
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for fname in sorted(files):
            path = Path(folder) / fname
            if path.suffix.lower() not in _TEXT_SUFFIXES and fname not in ("Makefile", "Dockerfile"):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return False
            try:
                if path.stat().st_size > _MAX_BYTES:
                    continue
                text = read_text_limited(path, errors="replace")
            except (OSError, ValueError):
                return False
            named = word.search(text) is not None
            if path.suffix.lower() != ".py":
                if named:
                    return False
                continue
            if not named and not any(cls_name in text for cls_name, index in positions if index >= 0):
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return False
            if not _py_keeps_off(tree, name, word, positions):
                return False
    return True


def forget() -> None:
    """Drop the project scans remembered so far. :func:`preflight.audit.build_plan` calls it once, on
    entry, so that one plan walks a project at most once per parameter (however many adapters ask)
    and the next plan (an editor's re-audit, the gate's next job) sees files as they are now."""
    _off_in_project.cache_clear()


def blank_param_guarded(text: str, root: Optional[Path]) -> str:
    """``text`` with the bodies of ``if self.P:`` blanked (same lines) for each class parameter ``P``
    that defaults to False and that nothing under ``root`` turns on; unchanged otherwise."""
    if root is None or "self." not in text:
        return text
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text
    spans: list[tuple[int, int]] = []
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for name in sorted(_off_params(cls)):
            guarded = [n for n in ast.walk(cls) if isinstance(n, ast.If) and _guard_reads(n.test, name)
                       and n.body and n.body[-1].end_lineno]
            if not guarded or not _off_in_project(str(root.resolve()), name, ((cls.name, _position(cls, name)),)):
                continue
            spans.extend((n.lineno, n.body[-1].end_lineno or n.lineno) for n in guarded)
    return blank_spans(text, spans)


def blank_guarded_params(text: str, root: Optional[Path]) -> str:
    """:func:`blank_param_guarded`, then the imports its blanking left unused
    (``from torch.utils.checkpoint import checkpoint`` called only in a blanked body)."""
    from preflight.adapters.ckpt_unused_import import blank_unused_imports

    out = blank_param_guarded(text, root)
    return out if out == text else blank_unused_imports(out)
