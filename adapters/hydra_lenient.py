"""A Hydra app whose launch line overrides keys its config lacks, read as the job meant it.

Hydra refuses ``a.b=value`` when the composed config has no ``a.b`` ("Could not override 'a.b'. To append
to your config use +a.b=value"), and the plan rule PF526 reports that as the job's bug. Until now the whole
composed config was then lost to the plan: cmu-l3/l1 @ 93dd330 ``scripts/train/run_l1_exact.sh:27-66``
overrides ``actor_rollout_ref.rollout.val_temperature`` and ``n_val``, which its ``config/ppo_trainer.yaml``
(a copy of an older verl's) does not have, and the model (``actor_rollout_ref.model.path=$MODEL_PATH``),
the world size and the batch sizes of the same line went unread.

:func:`lenient_composition` composes the app again with each refused key given as ``++key=value`` (add or
override: what the fix PF526 proposes makes the job run), up to a few keys, and returns that composition
with the keys it added; every other error stays an error. The caller notes that the plan is read as if
the fix were made; PF526 still reports the bug from the strict composition.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from preflight.adapters_api import Project

_COULD_NOT = re.compile(r"Could not override '([^']+)'\.\s*To append to your config use \+")
_MAX_KEYS = 12


def lenient_composition(project: Project, app: Any, failed: Any) -> Optional[tuple[Any, list[str]]]:
    """(composition, keys read as ``++key=value``) for an app whose strict composition ``failed`` only for
    overrides of keys its config lacks; None otherwise (cached on the project per app)."""
    from preflight.adapters.hydra import Composed, _compose_app

    cache = project.cache.setdefault("hydra.lenient", {})
    mark = (app.script.source.display if app.script is not None else "", str(app.config_dir), app.config_name)
    if mark in cache:
        return cache[mark]
    added: list[str] = []
    result: Any = failed
    out: Optional[tuple[Any, list[str]]] = None
    while len(added) < _MAX_KEYS:
        found = _COULD_NOT.search(str(getattr(result, "message", "")))
        if found is None or found.group(1) in added:
            break
        added.append(found.group(1))
        result = _compose_app(project, app, True, frozenset(added))
        if isinstance(result, Composed):
            out = (result, added)
            break
    cache[mark] = out
    return out
