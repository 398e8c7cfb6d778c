"""The batch size a project's batch sampler is given, read by the value flow (``hydra_reads._call``).

jaywalnut310/vits @ 2e561ba ``train.py:67-76`` and myshell-ai/MeloTTS ``melo/train.py:70-87``:
``train_sampler = DistributedBucketSampler(train_dataset, hps.train.batch_size, [32, 300, ...], num_replicas=n_gpus,
rank=rank, shuffle=True)`` handed to ``DataLoader(..., batch_sampler=train_sampler)``, with ``hps`` a configuration
object. :func:`sampler_batch_arg` gives the argument a call passes for the parameter that closes each batch, as
:func:`preflight.adapters.batch_sampler_local.batch_param` reads the project class's ``__iter__`` (``len(batch) ==
self.batch_size``, or slices ``[j*self.batch_size:(j+1)*self.batch_size]``); a class not of the project, or one
that cuts batches another way, gives None.
"""

from __future__ import annotations

import ast
from typing import Any, Optional


def sampler_batch_arg(call: ast.Call, name: str, reader: Any) -> Optional[ast.expr]:
    if not name.endswith("Sampler") or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    builder = getattr(reader, "builder", None)
    got = builder.m.klass(name) if builder is not None else None
    if got is None:
        return None
    from preflight.adapters.batch_sampler_local import batch_param

    found = batch_param(got[1])
    if found is None:
        return None
    param, position = found
    given = next((k.value for k in call.keywords if k.arg == param), None)
    if given is None and position < len(call.args):
        given = call.args[position]
    return given
