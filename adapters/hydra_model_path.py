"""The model a composed Hydra config names as ``<role>.model.path``: the RL trainers' layout.

verl-based projects keep one model section per role (PeterGriffinJin/Search-R1 @ a14dc3a
``verl/trainer/config/ppo_trainer.yaml:18-21,93-102``: ``actor_rollout_ref.model.path`` and
``critic.model.path``, given on the launch line ``train_ppo.sh:42,64`` as
``actor_rollout_ref.model.path=$BASE_MODEL``; ``verl/workers/fsdp_workers.py:304`` hands
``self.config.model.path`` to ``from_pretrained``). Read from the composed config (launch-line
overrides applied), never imported:

- every ``path`` key of a plain node named ``model`` (no ``_target_``: an instantiated
  ``X.from_pretrained`` node is read by ``HydraAdapter.pretrained_targets``) whose value is a Hub id (``owner/name``: not a
  local path such as ``~/models/x`` or ``./ckpt``, no ``${...}`` left);
- a local folder named like one catalog model (``./models/Qwen2.5-7B``:
  :func:`preflight.adapters.model_local_folder.catalog_download`) stands for that catalog Hub id, and the
  fact is then low;
- when those Hub ids are one and the same: ``model.ref``, medium. Roles naming different models
  (a policy and a separate reward model of another Hub id) state nothing: which one is trained is
  not decided here.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable

_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def model_paths(nodes: Iterable[tuple[tuple[str, ...], Any]], known: Callable[[tuple[str, ...]], Any],
                add: Callable[..., None]) -> None:
    """``add("model.ref", id, key_path, detail, "medium")`` for the one Hub id the ``model.path`` keys name."""
    from preflight.adapters.model_local_folder import catalog_download

    found: list[tuple[tuple[str, ...], str]] = []
    folders: list[str] = []
    for path, node in nodes:
        if not (path and path[-1] == "model" and isinstance(node, dict) and "path" in node) or "_target_" in node:
            continue  # an instantiated node (``_target_: X.from_pretrained``) is ``pretrained_targets``'s
        if not isinstance(node["path"], str):
            continue
        value = known((*path, "path"))
        if isinstance(value, str) and _HUB_ID.match(value.strip()) and not value.startswith((".", "~", "/")):
            found.append(((*path, "path"), value.strip()))
        elif isinstance(value, str) and catalog_download(value) is not None:
            folders.append(value.strip())
            found.append(((*path, "path"), str(catalog_download(value))))
    if not found or len({v for _, v in found}) != 1:
        return
    key_path, ref = found[0]
    roles = ", ".join(".".join(p) for p, _ in found)
    if folders:
        add("model.ref", ref, key_path, f"{roles}: {folders[0]}, a local folder named like the catalog model {ref}, "
                                        "taken as a download of it", "low")
        return
    add("model.ref", ref, key_path, f"{roles}: the Hub model the trainer loads", "medium")
