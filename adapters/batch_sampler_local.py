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


def _slice_width(node: ast.AST) -> Optional[str]:
    """``X`` of a slice ``[j*self.X:(j+1)*self.X]`` (either factor order), else None."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and node.slice.step is None):
        return None

    def product(e: Optional[ast.AST]) -> Optional[tuple[str, ast.AST]]:
        if not (isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult)):
            return None
        for a, b in ((e.left, e.right), (e.right, e.left)):
            if isinstance(b, ast.Attribute) and isinstance(b.value, ast.Name) and b.value.id == "self":
                return b.attr, a
        return None

    low, high = product(node.slice.lower), product(node.slice.upper)
    if low is None or high is None or low[0] != high[0] or not isinstance(low[1], ast.Name):
        return None
    step = high[1]
    if isinstance(step, ast.BinOp) and isinstance(step.op, ast.Add) and isinstance(step.left, ast.Name) \
            and step.left.id == low[1].id and isinstance(step.right, ast.Constant) and step.right.value == 1:
        return low[0]
    return None


def batch_param(cls: ast.ClassDef) -> Optional[tuple[str, int]]:
    """(parameter, position without self) whose value closes each batch in ``__iter__``."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    it = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__iter__"), None)
    if init is None or it is None:
        return None
    stored = _stored(init)
    params = [a.arg for a in init.args.args[1:]]
    for node in ast.walk(it):
        width = _slice_width(node)
        if width is not None and width in stored:
            # ``ids[j*self.batch_size:(j+1)*self.batch_size]`` (jaywalnut310/vits @ 2e561ba ``data_utils.py:363-365``
            # ``DistributedBucketSampler.__iter__``): each batch holds that many indices
            return stored[width], params.index(stored[width])
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
