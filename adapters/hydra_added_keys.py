"""The plan of a Hydra app whose launch overrides keys its config lacks (``key=value`` where
Hydra wants ``+key=value``).

Hydra refuses such a launch line before the app runs, and the plan rule PF526 reports it.
The rest of the line still says what the job is: cmu-l3/l1 @ 93dd330
``scripts/train/run_l1_exact.sh:27-68`` overrides 45 keys of ``config/ppo_trainer.yaml`` and
two it lacks (``actor_rollout_ref.rollout.val_temperature``, ``n_val``). For the plan, the
config is composed as the fix PF526 proposes (``++key=value``: add or override), and a note
says so. Every other composition failure stays what :func:`compositions` says.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Union

from preflight.adapters_api import Project
from preflight.diagnostics import FileError

if TYPE_CHECKING:  # no import cycle at run time
    from preflight.adapters.hydra import Composed

_COULD_NOT = re.compile(r"Could not override '([^']+)'\.\s*To append to your config use \+")
_MAX_ADDED = 16  # a line of more missing keys is not a few typos: left as Hydra refuses it


def plan_compositions(project: Project) -> list[Union[Composed, FileError]]:
    """:func:`preflight.adapters.hydra.compositions`, with each app that fails only on overrides
    of missing keys composed again with those overrides written ``++key=value`` (cached)."""
    from preflight.adapters.hydra import _compose_app, compositions, find_apps

    cache = project.cache.setdefault("hydra.plan_compositions", [])
    if cache:
        return cache[0]
    out: list[Union[Composed, FileError]] = []
    for app, result in zip(find_apps(project), compositions(project)):
        added: list[str] = []
        while isinstance(result, FileError) and len(added) < _MAX_ADDED:
            found = _COULD_NOT.search(result.message)
            if found is None or found.group(1) in added:
                break
            added.append(found.group(1))
            result = _compose_app(project, app, True, added=frozenset(added))
        if added and not isinstance(result, FileError):
            keys = ", ".join(added)
            result.composition.notes.append(
                f"the launch overrides {keys} without '+', which the config lacks (Hydra refuses the line: "
                f"PF526); the plan is read as if written '++' (added)")
        elif added:
            result = compositions(project)[len(out)]
        out.append(result)
    cache.append(out)
    return out

