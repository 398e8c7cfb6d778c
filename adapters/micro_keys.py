"""Keys of a project's config named like a micro batch that the code reads (read by
:mod:`preflight.adapters.hydra_reads`). policy-gradient/GRPO-Zero ``config_24GB.yaml:15``
``training.micro_batch_size: 2``, handed to ``update_policy(micro_batch_size=...)`` which splits the
256 episodes generated from a 32-question loader batch into micro batches of 2, one backward each
(``grpo.py:154-211``): the micro batch is the key's value, not the loader's ``batch_size``."""

from __future__ import annotations

from typing import Any, Callable, Iterable

MICRO = ("micro_batch_size", "micro_bsz", "micro_batch_size_per_gpu")


def micro_keys(read: Iterable[tuple], known: Callable[[tuple], Any]) -> list[tuple[int, tuple]]:
    """(value, key path) of each positive integer key named like a micro batch among ``read``."""
    out = []
    for path in sorted(read):
        value = known(path)
        last = path[-1].lower() if isinstance(path[-1], str) else path[-1]
        if last in MICRO and isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out.append((value, path))
    return out
