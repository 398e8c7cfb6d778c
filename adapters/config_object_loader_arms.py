"""Data loaders in the arms of a test the configuration cannot decide, which all take their workers and
pinning from the same key: whichever arm runs, the loader has that key's value (read by
:mod:`preflight.adapters.config_object_reads`; nothing is imported or executed).

facebookresearch/SlowFast @ 287ec00 ``slowfast/datasets/loader.py:115-170``: ``if isinstance(dataset,
torch.utils.data.IterableDataset): DataLoader(..., num_workers=cfg.DATA_LOADER.NUM_WORKERS,
pin_memory=cfg.DATA_LOADER.PIN_MEMORY, ...) else: if cfg.MULTIGRID.SHORT_CYCLE and ...: DataLoader(...)
else: DataLoader(...)``, each loader with the same two keys. Loaders in a branch the values decide not to run
are left out; one loader with another key (or none) leaves the field unread.
"""

from __future__ import annotations

import ast
from typing import Any, Callable

_KEYS = (("num_workers", "data.num_workers", int), ("pin_memory", "data.pin_memory", bool))


def agreeing_loaders(nodes: list[ast.AST], reader: Any, shown: str, skipped: Callable[[ast.AST], bool],
                     runs: Callable[[ast.AST], bool]) -> list[tuple[str, Any, tuple, str]]:
    """(field, value, the key's path, detail) for each loader keyword every live loader call of the function
    takes from one key, when none of those calls is known to run on its own (that case is read already)."""
    loaders = [n for n in nodes if isinstance(n, ast.Call) and (
        (isinstance(n.func, ast.Attribute) and n.func.attr == "DataLoader")
        or (isinstance(n.func, ast.Name) and n.func.id == "DataLoader")) and not skipped(n)]
    if len(loaders) < 2 or any(runs(n) for n in loaders):
        return []
    out: list[tuple[str, Any, tuple, str]] = []
    for kw, field, kind in _KEYS:
        exprs = [next((k.value for k in call.keywords if k.arg == kw), None) for call in loaders]
        if any(e is None for e in exprs):
            continue
        paths = {reader.chain(e) for e in exprs if e is not None}
        if len(paths) != 1 or None in paths:
            continue
        got = reader.ev(exprs[0])
        if got is None or got.path is None or not isinstance(got.value, kind) \
                or (kind is int and (isinstance(got.value, bool) or got.value < 0)):
            continue
        lines = ", ".join(str(c.lineno) for c in loaders)
        out.append((field, got.value, got.path, f"{'.'.join(got.path)} given as {kw} to every data loader the "
                    f"configuration may build ({shown}:{lines}; which one runs is not decided)"))
    return out
