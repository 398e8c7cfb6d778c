"""Weights cast to 16 bits in place through ``.data``, with no autocast: the model then trains in that
dtype. KellerJordan/modded-nanogpt @ f411b3d ``train_gpt.py:2242-2254``: ``for m in model.modules():
if isinstance(m, (nn.Embedding, nn.Linear)): m.weight.data = m.weight.data.bfloat16()`` and
``model.qk_bank.data = model.qk_bank.data.bfloat16()``; no ``model.bfloat16()`` call, so the method
reading (:mod:`preflight.adapters.pytorch_precision`) saw nothing and said fp32.

Read: an assignment ``X.data = X.data.bfloat16()`` / ``.half()`` / ``.to(torch.bfloat16)`` (``X`` the
same expression on both sides) where ``X`` starts at one of the job's model names, or at the loop
variable of a ``for`` over that model's ``modules()``/``parameters()`` (or their ``named_``/``children``
forms). A cast of a tensor that is not the model's (a buffer of a helper, an input batch) is not read."""

from __future__ import annotations

import ast
from typing import Optional

from preflight.analysis.syntax import dotted_name

_WALKS = ("modules", "parameters", "named_modules", "named_parameters", "children", "named_children")
_DTYPES = {"bfloat16": "bf16", "bf16": "bf16", "float16": "fp16", "half": "fp16"}


def _root(node: ast.AST) -> Optional[str]:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _cast_dtype(call: ast.Call) -> Optional[str]:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in ("bfloat16", "half") and not call.args and not call.keywords:
        return _DTYPES[func.attr]
    if func.attr == "to":
        args = [*call.args, *(k.value for k in call.keywords if k.arg == "dtype")]
        names = [(dotted_name(a) or "").rsplit(".", 1)[-1] for a in args]
        got = {_DTYPES[n] for n in names if n in ("bfloat16", "float16", "half")}
        return got.pop() if len(got) == 1 else None
    return None


def _loop_vars(tree: ast.AST, models: set[str]) -> set[str]:
    """Names bound by ``for v in <model>.modules()`` (and the other walks) over a model name."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.For) or not isinstance(node.iter, ast.Call):
            continue
        func = node.iter.func
        if isinstance(func, ast.Attribute) and func.attr in _WALKS and _root(func.value) in models:
            targets = node.target.elts if isinstance(node.target, ast.Tuple) else [node.target]
            out.update(t.id for t in targets if isinstance(t, ast.Name))
    return out


def data_cast(tree: Optional[ast.AST], models: set[str]) -> Optional[tuple[ast.Assign, str]]:
    """The first in-place 16-bit cast of the model's weights (the assignment and ``bf16``/``fp16``), or
    None; several casts of different dtypes: None."""
    if tree is None or not models:
        return None
    roots = models | _loop_vars(tree, models)
    found: list[tuple[ast.Assign, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.value, ast.Call):
            continue
        target, call = node.targets[0], node.value
        if not (isinstance(target, ast.Attribute) and target.attr == "data" and _root(target) in roots):
            continue
        func = call.func
        if not (isinstance(func, ast.Attribute) and ast.unparse(func.value) == ast.unparse(target)):
            continue
        dtype = _cast_dtype(call)
        if dtype is not None:
            found.append((node, dtype))
    if not found or len({d for _, d in found}) != 1:
        return None
    return min(found, key=lambda f: f[0].lineno)
