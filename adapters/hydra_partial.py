"""A Hydra app's config composed without the config group options whose files the project lacks.

A job handed to preflight is often part of a repository: the training script, its primary config and the
config groups that matter, without every option the defaults list names (``- dataset: emotion`` whose
``conf/dataset/emotion.yaml`` is not there), or launched with an override of a group the primary config does
not list (``experiment=...`` without ``+``). hydra-core stops at the first such option ("Could not find
'dataset/emotion'") and :func:`preflight.adapters.hydra_apps.compositions` reports the app as not composed, so
no Hydra rule reads its config. :func:`partial_compositions` composes those apps again with preflight's composer,
each missing option left out (hydra-core checks an option's file even for a deleted entry, ``~group``), and keeps
the result with the list of what it went without (``Composed.dropped``, with the launch line's overrides of groups
that are commonly global, ``experiment=...``).

The result is not the job's config: the missing files would add their keys. Rules that read it do so only for
values the dropped options cannot hold (those of the primary config and of the launch line, under a package
no dropped option writes to), and only a few rules read it at all (:func:`dropped_may_set`).
Only config files are read; nothing of the job is imported or run.
"""

from __future__ import annotations

import re
from typing import Any

from preflight.adapters.hydra_apps import (
    Composed,
    _compose_app,
    app_tokens,
    compositions,
    find_apps,
)

from preflight.adapters_api import Project

_REFUSED = re.compile(r"Could not override '([\w/.-]+)'")
_TRIES = 8
# groups whose options conventionally carry `# @package _global_` (lightning-hydra-template's experiment/,
# debug/, hparams_search/): a missing one may set any key of the config
GLOBAL_GROUPS = ("experiment", "exp", "experiments", "debug", "hparams_search", "preset", "presets", "local")


def partial_compositions(project: Project) -> list[Composed]:
    """The apps that could not be composed because config group options are missing, each composed without
    them (``Composed.dropped`` lists them; never empty). Cached on the project."""
    cache = project.cache.setdefault("hydra.partial", {})
    if "all" in cache:
        return list(cache["all"])
    out: list[Composed] = []
    for app, result in zip(find_apps(project), compositions(project)):
        if isinstance(result, Composed) or app.config_dir is None or "Could not find '" not in result.message:
            continue
        tokens = app_tokens(project, app)
        refused: list[str] = []
        for _ in range(_TRIES):
            skipped: list[str] = []
            again = _compose_app(project, app, False, skipped=skipped, given=tokens)
            m = _REFUSED.search(getattr(again, "message", ""))
            if m is None:
                break
            # `group=option` of a group whose folder is missing: read as a value override of a key the config
            # lacks; the option is one more the composition goes without
            kept = [t for t in tokens if t.lstrip("+").partition("=")[0] != m.group(1) or "=" not in t]
            if len(kept) == len(tokens):
                break
            refused += [t for t in tokens if t not in kept]
            tokens = kept
        if not isinstance(again, Composed) or not (skipped or refused):
            continue
        for token in refused:
            key, _, value = token.lstrip("+").partition("=")
            skipped.append(token if key.split("/")[0] in GLOBAL_GROUPS else f"{key}/{value}")
        for token in tokens:
            key, eq, _ = token.lstrip("+").partition("=")
            if eq and key.split("/")[0] in GLOBAL_GROUPS and key not in again.config:
                skipped.append(token)  # `experiment=...` the composer could not place: its file may set anything
        again.dropped = list(dict.fromkeys(skipped))
        out.append(again)
    cache["all"] = out
    return list(out)


def dropped_may_set(comp: Any, path: tuple[str, ...]) -> bool:
    """Whether an option the partial composition ``comp`` went without may set the key ``path``: one of a
    group whose options are commonly global (``experiment``), or of the group the key lies under (Hydra's
    default package, ``_group_``: ``dataset/emotion`` writes under ``dataset``)."""
    for what in getattr(comp, "dropped", ()):
        if "=" in what:  # the launch line's `experiment=...`
            what = what.lstrip("+").partition("=")[0] + "/"
        parts = tuple(what.split("/")[:-1]) or (what,)
        if any(p in GLOBAL_GROUPS for p in parts) or path[:1] == parts[:1]:
            return True
    return False
