"""The keys a Hydra command-line override may name: Hydra's own config (``hydra.*``, the
``HydraConf`` dataclass of hydra/conf/__init__.py) and near-miss spellings of existing keys.
Shared by PF526 (a plain override of a ``hydra.*`` key Hydra's config lacks) and PF258 (a
``+``/``++`` override that appends a misspelling of an existing key)."""

from __future__ import annotations

import difflib
from typing import Any, Optional

# hydra-core 1.3.8 hydra/conf/__init__.py (and `env`, the group HydraConf's defaults select):
# the nodes whose keys are fixed by a dataclass; plugin nodes (launcher, sweeper, logging,
# callbacks, env, job.env_set, runtime.choices) take any key
_CLOSED: dict[tuple[str, ...], frozenset[str]] = {
    (): frozenset({"defaults", "mode", "searchpath", "run", "sweep", "hydra_logging", "job_logging", "sweeper",
                   "launcher", "callbacks", "help", "hydra_help", "output_subdir", "overrides", "job", "runtime",
                   "verbose", "env"}),
    ("run",): frozenset({"dir"}),
    ("sweep",): frozenset({"dir", "subdir"}),
    ("job",): frozenset({"name", "chdir", "override_dirname", "id", "num", "config_name", "env_set", "env_copy",
                         "config"}),
    ("job", "config"): frozenset({"override_dirname"}),
    ("job", "config", "override_dirname"): frozenset({"kv_sep", "item_sep", "exclude_keys"}),
    ("help",): frozenset({"app_name", "header", "footer", "template"}),
    ("hydra_help",): frozenset({"hydra_help", "template"}),
    ("overrides",): frozenset({"hydra", "task"}),
}


def unknown_hydra_key(key: str) -> Optional[tuple[str, frozenset[str]]]:
    """For ``hydra.a.b``: the first part that Hydra's own config does not have at a node whose keys
    are fixed, with the keys that node has; None when every part exists or the path enters a
    plugin node (``hydra.launcher.n_jobs``)."""
    parts = key.split(".")
    if parts[0] != "hydra" or len(parts) < 2 or any(not p for p in parts):
        return None
    path: tuple[str, ...] = ()
    for part in parts[1:]:
        allowed = _CLOSED.get(path)
        if allowed is None:
            return None  # a plugin node, or below a leaf: not ours to judge
        if part not in allowed:
            return part, allowed
        path = (*path, part)
    return None


def _edit_is_typo(a: str, b: str) -> bool:
    """One letter left out, added or two neighbours swapped (``weight_decy``, ``ouput_subdir``,
    ``dropuot``); not a digit (``layer1``/``layer2``), not a plural ``s`` at the end, not a
    replaced letter (``dim_q``/``dim_k`` are different keys)."""
    if a == b or min(len(a), len(b)) < 5:
        return False
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    if len(long_) - len(short) == 1:
        if long_ == short + "s":
            return False  # a plural: `callback` / `callbacks`
        for i in range(len(long_)):
            if long_[:i] + long_[i + 1:] == short:
                extra = long_[i]
                return not extra.isdigit() and extra not in "_-."
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]] \
            and not any(a[i].isdigit() for i in diff)
    return False


def misspelled_sibling(name: str, siblings: Any) -> Optional[str]:
    """The existing key ``name`` misspells (one letter out, in, or swapped), or None."""
    found = [s for s in siblings if isinstance(s, str) and _edit_is_typo(name, s)]
    return found[0] if len(found) == 1 else None


def closest(name: str, keys: Any) -> Optional[str]:
    match = difflib.get_close_matches(name, sorted(k for k in keys if isinstance(k, str)), n=1, cutoff=0.75)
    return match[0] if match else None
