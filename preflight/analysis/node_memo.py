"""A value computed once per object and kept on it: a syntax-tree node (the names a statement binds,
the ``global`` names under a scope) or a script index (its ``if`` chains). The value flow asks the same
question of the same node once per name it follows, and recomputing it each time cost minutes on long
scripts (huggingface/parler-tts ``run_parler_tts_training.py``)."""

from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")


def node_memo(node: object, key: str, compute: Callable[[], T]) -> T:
    """``compute()`` the first time ``key`` is asked of ``node``, the kept value after (stored in the
    node's ``__dict__`` under ``key``: name it ``_pf_...`` so that it cannot meet an ``ast`` field)."""
    kept = node.__dict__
    if key in kept:
        value: T = kept[key]
        return value
    value = compute()
    kept[key] = value
    return value
