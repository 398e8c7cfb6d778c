"""Tokens a script cuts from a tokenizer call's result before training on it.

``result = tokenizer(prompt, max_length=CUTOFF_LEN + 1, padding="max_length")`` followed by
``result["input_ids"][:-1]`` (project-baize/baize-chatbot finetune.py:105-114) trains on
``CUTOFF_LEN`` tokens: the call's ``max_length`` counts one token that is dropped. The cut is read
only from a slice of the same name's ``input_ids`` in the same function, with a literal bound
(``[:-k]``, ``[k:]``); anything else cuts nothing."""

from __future__ import annotations

import ast
from typing import Optional

_IDS = ("input_ids",)


def _cut(node: ast.Subscript, name: str) -> Optional[int]:
    """Tokens dropped by ``name["input_ids"][a:b]`` with literal bounds, else None."""
    inner = node.value
    if not (isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name) and inner.value.id == name
            and isinstance(inner.slice, ast.Constant) and inner.slice.value in _IDS):
        return None
    cut = node.slice
    if not isinstance(cut, ast.Slice) or cut.step is not None:
        return None
    lower, upper = cut.lower, cut.upper
    dropped = 0
    if upper is not None:
        if (isinstance(upper, ast.UnaryOp) and isinstance(upper.op, ast.USub)
                and isinstance(upper.operand, ast.Constant) and type(upper.operand.value) is int):
            dropped += upper.operand.value
        else:
            return None
    if lower is not None:
        if isinstance(lower, ast.Constant) and type(lower.value) is int and lower.value >= 0:
            dropped += lower.value
        else:
            return None
    return dropped if dropped > 0 else None


def _enclosing(tree: ast.AST, call: ast.Call) -> ast.AST:
    """The innermost function holding ``call`` (by line span), else the module."""
    best: Optional[ast.AST] = None
    for node in ast.walk(tree):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and node.lineno <= call.lineno <= (node.end_lineno or node.lineno)
                and (best is None or node.lineno > best.lineno)):  # type: ignore[attr-defined]
            best = node
    return best if best is not None else tree


def dropped_tokens(tree: Optional[ast.AST], call: ast.Call, target: Optional[str]) -> int:
    """How many tokens the script drops from ``target = tokenizer(...)``'s ``input_ids`` before
    use: the one cut all literal slices of it agree on, else 0."""
    if tree is None or not target or "." in target:
        return 0
    scope = _enclosing(tree, call)
    cuts = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript):
            cut = _cut(node, target)
            if cut is not None:
                cuts.add(cut)
    return cuts.pop() if len(cuts) == 1 else 0
