"""PF488's second shape (helper): a row padded by hand (``ids + [pad_token_id] * n``) copied into the labels,
with no pad position of the copy set to -100 afterwards (a collator that masks only the prompt)."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

_COPY_METHODS = frozenset({"copy", "clone"})
_COPY_CALLS = frozenset({"list", "deepcopy", "copy"})


def _is_pad_id(expr: ast.AST) -> bool:
    """``tokenizer.pad_token_id``, ``self.tokenizer.pad_token_id``, ``pad_token_id``, ``pad_id``."""
    text = ast.unparse(expr)
    return text.endswith("pad_token_id") or text in ("pad_id", "pad_idx", "pad_index")


def _pad_tail(expr: ast.AST) -> bool:
    """``[pad_id] * n`` (either order)."""
    if not (isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult)):
        return False
    for side in (expr.left, expr.right):
        if isinstance(side, ast.List) and len(side.elts) == 1 and _is_pad_id(side.elts[0]):
            return True
    return False


def _padded_by_hand(value: ast.AST) -> bool:
    """``ids + [pad_id] * n`` (or ``list(ids) + ...``)."""
    return isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add) and _pad_tail(value.right)


def _copied_from(value: ast.AST) -> Optional[str]:
    """The name a value copies: ``x.copy()``, ``x.clone()``, ``list(x)``, ``copy.deepcopy(x)``, ``x[:]``."""
    if isinstance(value, ast.Call):
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr in _COPY_METHODS and not value.args \
                and isinstance(func.value, ast.Name):
            return func.value.id
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if last in _COPY_CALLS and len(value.args) == 1 and isinstance(value.args[0], ast.Name):
            return value.args[0].id
    if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice) and value.slice.lower is None \
            and value.slice.upper is None and isinstance(value.value, ast.Name):
        return value.value.id
    return None


def _masks_pads(fn: ast.AST) -> bool:
    """The function masks pad positions somewhere: compares with the pad id (``labels[labels == pad] = -100``,
    ``-100 if t == pad``), pads labels with ``[-100] * n``, or writes -100 from a lower bound on
    (``label[len(ids):] = ...``) or through a mask (``label[mask == 0] = -100``)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Compare) and any(_is_pad_id(part) for part in [node.left, *node.comparators]):
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for side in (node.left, node.right):
                if isinstance(side, ast.List) and len(side.elts) == 1 and "-100" in ast.unparse(side.elts[0]):
                    return True
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and (
                        (isinstance(target.slice, ast.Slice) and target.slice.lower is not None)
                        or isinstance(target.slice, ast.Compare)):
                    return True
        if isinstance(node, ast.Name) and "ignore_index" in node.id:
            return True
    return False


def hand_padded_label_copies(fn: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
    """(labels copy, the padding) in one function: ``label = padded.copy()`` where ``padded = ids +
    [pad_id] * n``, when nothing in the function masks the pad positions of the copy."""
    padded: dict[str, ast.AST] = {}
    copies: list[tuple[ast.AST, str]] = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            continue
        if _padded_by_hand(node.value):
            padded[node.targets[0].id] = node
        source = _copied_from(node.value)
        if source is not None and "label" in node.targets[0].id.lower():
            copies.append((node, source))
    found = [(copy, padded[source]) for copy, source in copies if source in padded]
    if found and not _masks_pads(fn):
        yield from found
