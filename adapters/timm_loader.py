"""timm's ``create_loader`` as the training data loader (used by the pytorch adapter when the
script builds no ``torch.utils.data.DataLoader`` itself).

timm's ``train.py`` and the many trainers copied from it (sail-sg/poolformer @ its pinned commit,
``train.py:31,528-555``: ``loader_train = create_loader(dataset_train, input_size=...,
batch_size=args.batch_size, is_training=True, ..., num_workers=args.workers, distributed=
args.distributed, pin_memory=args.pin_mem)``) build the loader with
``timm.data.loader.create_loader``, which makes a ``torch.utils.data.DataLoader`` with that
``batch_size`` per process (a ``DistributedSampler`` splits the data when ``distributed``), the
given ``num_workers`` and ``pin_memory`` (timm/data/loader.py ``create_loader``:
``loader_args = dict(batch_size=batch_size, shuffle=..., num_workers=num_workers, sampler=sampler,
collate_fn=collate_fn, pin_memory=pin_memory, drop_last=is_training, ...)``).

Read: the training loader (``is_training=True``, or a target naming train) and its keywords as
written (``batch_size`` also the third positional argument); timm's defaults, which moved
between versions, are not assumed.
"""

from __future__ import annotations

import ast
from typing import Any

_FIELDS = (("batch_size", 2, "batch.micro"), ("num_workers", None, "data.num_workers"),
           ("pin_memory", None, "data.pin_memory"))


def _training(site: Any) -> bool:
    flag = site.kwarg("is_training")
    if isinstance(flag, ast.Constant):
        return flag.value is True
    return bool(site.target and "train" in site.target.lower())


def timm_loaders(pass_: Any) -> bool:
    """Facts from the training ``create_loader(...)`` of timm; whether one was read."""
    sites = [s for s in pass_.calls if s.last == "create_loader" and (s.qualified or "").startswith("timm.")
             and _training(s)]
    if len(sites) != 1:
        return False
    site = sites[0]
    conf = "medium" if pass_.conf(site) == "high" else pass_.conf(site)
    for kw, position, field in _FIELDS:
        expr = site.kwarg(kw)
        if expr is None and position is not None and len(site.call.args) > position:
            expr = site.call.args[position]
        resolved = pass_.value(expr) if expr is not None else None
        if resolved is not None:
            pass_.put(field, resolved, site, f"{site.label}({kw}=...): timm builds a DataLoader with it, "
                      "per process", conf)
    return True
