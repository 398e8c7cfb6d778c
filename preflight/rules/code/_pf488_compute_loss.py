"""PF488 through a Trainer subclass: ``compute_loss`` copies the batch's ``input_ids`` as the labels of
its own cross-entropy, in a file whose dataset rows are padded to ``max_length`` (TRL PR 1625, ORPO's
NLL term: ``labels = input_ids.clone()`` with pad = EOS, fixed by masking ``attention_mask == 0``)."""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from preflight.rules._pf414_support import call_last
from preflight.rules.code._input_ids import is_input_ids

# what masks a label tensor inside the function: a where/masked_fill/fill, or a comparison with the
# attention mask or the pad id (``labels[labels == pad_id] = -100``)
_MASKING_CALLS = frozenset({"where", "masked_fill", "masked_fill_", "fill_", "masked_select", "index_fill_"})
_LOSSES = frozenset({"cross_entropy", "nll_loss", "CrossEntropyLoss", "NLLLoss"})


def _trainer_subclasses(tree: ast.AST) -> Iterator[ast.ClassDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(ast.unparse(b).rsplit(".", 1)[-1].endswith("Trainer")
                                                  for b in node.bases):
            yield node


def _masks_in(fn: ast.AST) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and call_last(node) in _MASKING_CALLS:
            return True
        if isinstance(node, ast.Compare):
            text = ast.unparse(node)
            if "attention_mask" in text or "pad" in text:
                return True
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) for t in node.targets):
            return True  # ``labels[...] = ...``: written before the loss
        if isinstance(node, ast.Call) and call_last(node) in _LOSSES:
            ignore = next((kw.value for kw in node.keywords if kw.arg == "ignore_index"), None)
            if ignore is not None and not (isinstance(ignore, ast.UnaryOp) and isinstance(ignore.operand, ast.Constant)
                                           and ignore.operand.value == 100):
                return True  # ``ignore_index=tokenizer.pad_token_id``: the pads are ignored
    return False


def _used_as_target(fn: ast.AST, name: str) -> bool:
    """``name`` (or a slice/view of it bound in the function) reaches a loss call or a ``labels=`` keyword."""
    names = {name}
    changed = True
    while changed:
        changed = False
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id not in names and any(isinstance(n, ast.Name) and n.id in names
                                                                  for n in ast.walk(node.value)):
                names.add(node.targets[0].id)
                changed = True
    for node in ast.walk(fn):
        if isinstance(node, ast.keyword) and node.arg == "labels" and isinstance(node.value, ast.Name) \
                and node.value.id in names:
            return True
        if isinstance(node, ast.Call) and call_last(node) in ("cross_entropy", "nll_loss", "loss_fct", "loss_fn") \
                and any(isinstance(n, ast.Name) and n.id in names for a in node.args for n in ast.walk(a)):
            return True
    return False


def compute_loss_copies(tree: ast.AST) -> Iterator[ast.Assign]:
    """``labels = input_ids.clone()`` (or ``= inputs["input_ids"]...``) in a Trainer subclass's
    ``compute_loss`` that never masks them and feeds them to its loss."""
    for cls in _trainer_subclasses(tree):
        for fn in cls.body:
            if not (isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name == "compute_loss"):
                continue
            if _masks_in(fn):
                continue
            site = _copy_site(fn)
            if site is not None:
                yield site


def _copy_site(fn: ast.AST) -> Optional[ast.Assign]:
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and is_input_ids(node.value) \
                and "label" in node.targets[0].id and _used_as_target(fn, node.targets[0].id):
            return node
    return None
