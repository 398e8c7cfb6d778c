"""A ``DataLoader`` without ``batch_size`` in one arm of an ``if`` the job does not decide, beside one that
gives ``batch_size`` in another arm of the same ``if``: the two are alternatives, and the default of the
first (``batch_size=1``) is no more the job's batch than the other's value. graphdeeplearning/benchmarking-gnns
@ b6c40771 ``main_molecules_graph_regression.py:147-160``::

    if MODEL_NAME in ['RingGNN', '3WLGNN']:
        train_loader = DataLoader(trainset, shuffle=True, collate_fn=...)       # dense GNNs: one graph a batch
    else:
        train_loader = DataLoader(trainset, batch_size=params['batch_size'], ...)  # every other GNN

``MODEL_NAME`` is a parameter of the pipeline function, so the ``if`` is not decided; the library default 1
of the first arm is not said, and the value of the other arm (read by the value flow from the JSON config)
stands. A default in an arm the job decides false is not read either (that arm does not run).
"""

from __future__ import annotations

from typing import Any, Sequence


def _batch_given(site: Any) -> bool:
    return site.arg(1, "batch_size") is not None or site.kwarg("batch_sampler") is not None


def default_is_alternative(idx: Any, site: Any, chosen: Sequence[Any]) -> bool:
    """``site`` (a loader without ``batch_size``) sits in an arm of an undecided ``if`` whose other arm holds a
    loader of ``chosen`` that gives ``batch_size`` (or a batch sampler): its default is not the job's value."""
    if idx.runs(site) is not None:
        return False  # decided: it runs (its default is the value) or it does not (no loader reads it)
    mine = {id(test): in_body for test, in_body in site.guards}
    for other in chosen:
        if other is site or not _batch_given(other) or idx.runs(other) is False:
            continue
        for test, in_body in other.guards:
            if id(test) in mine and mine[id(test)] != in_body and idx.truth(test) is None:
                return True
    return False

