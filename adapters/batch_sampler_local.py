"""A project's own batch sampler that closes a batch when it holds ``self.batch_size`` indices
(read by :func:`preflight.adapters.pytorch_local.sampler_batch`):

    class SkipBatchSampler(Sampler):
        def __init__(self, sampler, batch_size, skip_batches=0):
            self.batch_size = batch_size
        def __iter__(self):
            batch = []
            for idx in self.sampler:
                batch.append(idx)
                if len(batch) == self.batch_size:
                    yield batch; batch = []

(jingyaogong/minimind @ d65ef2c ``trainer/trainer_utils.py:134-150``, built as
``SkipBatchSampler(train_sampler or indices, args.batch_size, skip)`` and handed to
``DataLoader(train_ds, batch_sampler=...)`` at ``trainer/train_pretrain.py:161-162``): the loader's
batch is the argument bound to that parameter. A sampler that cuts batches another way (buckets,
token budgets) is not this shape and is not read. Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Optional

from preflight.local_trees import parse_file

_MAX_BYTES = 500_000


def _stored(init: ast.FunctionDef) -> dict[str, str]:
    params = {a.arg for a in init.args.args[1:]}
    out: dict[str, str] = {}
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Attribute) \
                and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id == "self" \
                and isinstance(node.value, ast.Name) and node.value.id in params:
            out[node.targets[0].attr] = node.value.id
    return out


def batch_param(cls: ast.ClassDef) -> Optional[tuple[str, int]]:
    """(parameter, position without self) whose value closes each batch in ``__iter__``."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    it = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__iter__"), None)
    if init is None or it is None:
        return None
    stored = _stored(init)
    params = [a.arg for a in init.args.args[1:]]
    for node in ast.walk(it):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.GtE))):
            continue
        left, right = node.left, node.comparators[0]
        if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "len" \
                and isinstance(right, ast.Attribute) and isinstance(right.value, ast.Name) \
                and right.value.id == "self" and right.attr in stored:
            param = stored[right.attr]
            return param, params.index(param)
    return None


def find_class(name: str, paths: list[Path]) -> Optional[ast.ClassDef]:
    for path in paths:
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            tree = parse_file(path)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return node
    return None
