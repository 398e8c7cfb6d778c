"""A dataset class of a local module that pads every sample to ``max_length``: ``data.padding`` max_length.

A custom ``Dataset`` whose ``__getitem__`` (or ``__init__``, tokenizing everything up front) calls its tokenizer
with ``padding="max_length"`` hands the loader rows of one length, whatever that length is; the default
collate stacks them. The script reads it from a module beside it (anttitapsa/TCR_transformer @ 3228e9f
``code/CDR3Dataset.py:39-40`` ``self.tokenizer(self.labels[idx], padding='max_length',
max_length=self.max_length, ...)``, the class built at ``code/train.py:131``), so the script's own tokenizer
calls (adapters/pytorch_features.py ``shapes``) do not see it. The same ``__getitem__`` is in many
classification and retrieval scripts (``enc = self.tokenizer(text, truncation=True, padding='max_length',
max_length=self.max_length, return_tensors='pt')``).

Said (``max_length``, medium) once every adapter has run and no padding was found otherwise, only when:
the script builds the class by the name it imports it under (``from CDR3Dataset import CDR3Dataset``) from a
local module read (:func:`preflight.adapters.pytorch_local._imported_up`); that class's ``__getitem__`` or
``__init__`` calls a tokenizer (a callee named ``...tokenizer``/``tok``) with ``padding="max_length"`` (or
``pad_to_max_length=True``) outside any ``if``; no tokenizer call of those methods pads otherwise; and no
``DataLoader`` of the script is given a ``collate_fn`` (a collator could cut or pack the rows). Two such classes
built, or one call under an ``if``, state nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan

_METHODS = ("__getitem__", "__init__")


def _tokenizer_call(node: ast.Call) -> bool:
    name = (dotted_name(node.func) or "").lower()
    parts = name.split(".")
    if parts and parts[-1] in ("encode", "encode_plus", "batch_encode_plus", "__call__"):
        parts = parts[:-1]
    return bool(parts) and (parts[-1].endswith("tokenizer") or parts[-1] in ("tok", "tknzr"))


def _padding_of(node: ast.Call) -> Optional[str]:
    """``"max_length"``, ``"other"`` (any other padding, a value not a literal), or None (no padding given)."""
    kws = {kw.arg: kw.value for kw in node.keywords}
    if None in kws:
        return "other"  # ``**kwargs``: the padding may be in them
    pad = kws.get("padding")
    legacy = kws.get("pad_to_max_length")
    if isinstance(legacy, ast.Constant) and legacy.value is True:
        return "max_length"
    if pad is None:
        return None
    if isinstance(pad, ast.Constant) and pad.value == "max_length":
        return "max_length"
    if isinstance(pad, ast.Constant) and pad.value in (False, "do_not_pad"):
        return None
    return "other"


def _pads_to_max(cls: ast.ClassDef) -> Optional[int]:
    """The line of the ``padding="max_length"`` tokenizer call of the class's ``__getitem__``/``__init__``,
    when every padding tokenizer call there pads so and none sits under an ``if``."""
    line: Optional[int] = None
    for item in cls.body:
        if not (isinstance(item, ast.FunctionDef) and item.name in _METHODS):
            continue
        guarded: set[int] = set()
        for node in ast.walk(item):
            if isinstance(node, (ast.If, ast.IfExp, ast.Try, ast.BoolOp)):
                guarded.update(id(n) for n in ast.walk(node) if n is not node)
        for node in ast.walk(item):
            if not (isinstance(node, ast.Call) and _tokenizer_call(node)):
                continue
            how = _padding_of(node)
            if how is None:
                continue
            if how != "max_length" or id(node) in guarded:
                return None
            line = node.lineno if line is None else line
    return line


def _local_classes(tree: ast.Module, path: Path, root: Optional[Path]) -> dict[str, tuple[Path, ast.ClassDef]]:
    """Classes the script imports by name from its local modules: local name -> (module path, class)."""
    from preflight.adapters.pytorch_local import _imported_up

    from preflight.sources import read_text_limited

    wanted: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                wanted[a.asname or a.name] = a.name
    out: dict[str, tuple[Path, ast.ClassDef]] = {}
    if not wanted:
        return out
    for local in _imported_up(tree, path.parent, root, depth=1):
        try:
            module = ast.parse(read_text_limited(local, errors="replace"))
        except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
            continue
        for node in module.body:
            if isinstance(node, ast.ClassDef):
                for alias, name in wanted.items():
                    if name == node.name and alias not in out:
                        out[alias] = (local, node)
    return out


def dataset_padding(plan: TrainingPlan, project: Any) -> None:
    if plan.resolve("data.padding") is not None or not getattr(project, "scripts", None):
        return
    root = Path(str(project.root)) if getattr(project, "root", None) else None
    found: list[tuple[str, Path, int]] = []
    for script in project.scripts:
        tree = script.tree
        if not isinstance(tree, ast.Module) or script.source.path is None:
            continue
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
        if any((dotted_name(c.func) or "").rsplit(".", 1)[-1] == "DataLoader"
               and any(kw.arg in ("collate_fn", None) for kw in c.keywords) for c in calls):
            return
        classes = _local_classes(tree, Path(str(script.source.path)).resolve(), root)
        built = {c.func.id for c in calls if isinstance(c.func, ast.Name)}
        for alias, (path, cls) in classes.items():
            if alias not in built:
                continue
            line = _pads_to_max(cls)
            if line is not None:
                found.append((cls.name, path, line))
    if len(found) != 1:
        return
    name, path, line = found[0]
    try:
        shown = str(path.relative_to(root.resolve())) if root is not None else str(path)
    except ValueError:
        shown = str(path)
    plan.add("data.padding", "max_length",
             Source("code", shown, line, "padding",
                    f"{name} (built by the script) tokenizes each sample with padding='max_length': every row has "
                    "that length, and no DataLoader of the script is given a collate_fn"),
             "medium", adapter="derive")


__all__ = ["dataset_padding"]
