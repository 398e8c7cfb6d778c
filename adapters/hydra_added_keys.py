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
from typing import TYPE_CHECKING, Any, Optional, Union

from preflight.adapters_api import Project
from preflight.diagnostics import FileError

if TYPE_CHECKING:  # no import cycle at run time
    from preflight.adapters.hydra import Composed

_COULD_NOT = re.compile(r"Could not override '([^']+)'\.\s*To append to your config use \+")
_MAX_ADDED = 16  # a line of more missing keys is not a few typos: left as Hydra refuses it


def _stored_entry(app: Any, result: Any) -> Optional[str]:
    """The top-level config name Hydra could not load that the app's script stores in the
    ConfigStore (codebyzeb/BabyLM train.py:29-30 ``cs.store(name="base_config", node=BabyLMConfig)``
    named by ``conf/config.yaml``'s defaults list), else None."""
    if not isinstance(result, FileError) or app.script is None:
        return None
    found = re.search(r"Could not load '([^'/]+)'", result.message)
    if found is None:
        return None
    name = re.escape(found.group(1))
    stored = re.search(rf"\.store\((?:[^()]*,\s*)?name\s*=\s*[\"']{name}[\"']", app.script.source.text)
    return found.group(1) if stored is not None else None


def plan_compositions(project: Project) -> list[Union[Composed, FileError]]:
    """:func:`preflight.adapters.hydra.compositions`, with each app that fails only on overrides
    of missing keys composed again with those overrides written ``++key=value``, and on configs its
    script registers in the ConfigStore composed with those empty (cached)."""
    from preflight.adapters.hydra import _compose_app, compositions, find_apps

    cache = project.cache.setdefault("hydra.plan_compositions", [])
    if cache:
        return cache[0]
    from preflight.adapters.hydra_config_store import project_entries, stored_name
    from preflight.adapters.hydra_core_compose import stored_nodes, stub_configs

    out: list[Union[Composed, FileError]] = []
    for app, result in zip(find_apps(project), compositions(project)):
        added: list[str] = []
        stubs: list[str] = []
        entries: list = []
        while isinstance(result, FileError) and len(added) + len(stubs) < _MAX_ADDED:
            found = _COULD_NOT.search(result.message)
            stored = _stored_entry(app, result)
            if not entries and stored_name(project, result.message) is not None:
                entries = project_entries(project)  # the project's ConfigStore, read from its dataclasses
            elif found is not None and found.group(1) not in added:
                added.append(found.group(1))
            elif stored is not None and stored not in stubs:
                stubs.append(stored)
            else:
                break
            with stub_configs(stubs), stored_nodes(entries):
                result = _compose_app(project, app, True, added=frozenset(added))
        if isinstance(result, FileError):
            result = compositions(project)[len(out)]
        else:
            if entries:
                shown = ", ".join(f"{g}/{n}" if g else n for g, n, _ in entries[:6])
                more = f" and {len(entries) - 6} more" if len(entries) > 6 else ""
                result.composition.notes.append(
                    f"configs the project registers in Hydra's ConfigStore when it runs ({shown}{more}): composed "
                    "from their dataclasses read statically (a field whose default is not a literal, MISSING, "
                    "II(...), a default_factory of literals or a nested dataclass is left out)")
            for stored in stubs:
                result.composition.notes.append(
                    f"'{stored}' is a structured config the script registers in Hydra's ConfigStore when it runs: "
                    "composed as empty here (its dataclass defaults are not read; the files' values are)")
            if added and stubs:
                result.composition.notes.append(
                    f"the launch overrides {', '.join(added)}, which the config files lack (fields of the ConfigStore "
                    "config, not read, may hold them): added for the plan")
            elif added:
                result.composition.notes.append(
                    f"the launch overrides {', '.join(added)} without '+', which Hydra refuses (PF526: a key the "
                    "config lacks, or a mapping with keys its node lacks); the plan is read as if written '++' (added)")
        out.append(result)
    cache.append(out)
    return out

