"""A data loader's worker count capped by another count: ``num_workers=min(config.num_workers, batch_size)``.

ZhengPeng7/BiRefNet @ 25cb930 ``train.py:83-92`` (``DataLoader(..., batch_size=batch_size,
num_workers=min(config.num_workers, batch_size), ...)`` with ``config.py:77`` ``self.num_workers = max(4,
self.batch_size)``); the cap is common in training scripts (``find_string "num_workers=min(config."``: ten files,
``DataLoader(train_subset, batch_size=config.batch_size, num_workers=min(config.num_workers, 2))``,
``num_workers=min(config.training.num_workers, 2)``; ``"num_workers=min(args.num_workers,"``: ten more,
``num_workers=min(args.num_workers, 2)`` or ``4``).

Read, never run: the keyword's value is a call of the builtin ``min`` or ``max`` with two or more plain
arguments, each a literal int or an expression the configuration reader resolves to an int, one of them read
from a key named like a worker count (``num_workers``, ``workers``, ``load_worker``). The count is the
builtin's result, attributed to that key. A machine count among the arguments (``os.cpu_count()``,
``torch.get_num_threads()``, ``len(...)``) does not resolve, and leaves the count unknown: it depends on
where the job runs.
"""

from __future__ import annotations

import ast
from typing import Any, Optional


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def bounded_workers(expr: ast.AST, reader: Any) -> Optional[tuple[int, tuple]]:
    """(the count, the worker key's path) of ``min(...)``/``max(...)`` as above, or None."""
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("min", "max")):
        return None
    if expr.keywords or len(expr.args) < 2 or any(isinstance(a, ast.Starred) for a in expr.args):
        return None
    if expr.func.id in getattr(reader, "assigns", {}):
        return None  # ``min`` rebound in the script: not the builtin
    values: list[int] = []
    path: Optional[tuple] = None
    for arg in expr.args:
        if isinstance(arg, ast.Constant):
            value = _int(arg.value)
            if value is None:
                return None
            values.append(value)
            continue
        got = reader.ev(arg)
        value = _int(got.value) if got is not None else None
        if got is None or value is None or got.path is None:
            return None
        values.append(value)
        if path is None and "worker" in str(tuple(got.path)[-1]).lower():
            path = tuple(got.path)
    if path is None:
        return None
    return (min(values) if expr.func.id == "min" else max(values)), path
