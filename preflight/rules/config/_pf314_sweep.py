"""PF314's multirun shape: a launcher or sweeper override inside a config of a group the command line sweeps.

In a multirun Hydra composes the config the sweeper and the launcher are built from without the sweep
overrides (``+experiment=small,large``): the options of a swept group are composed later, once per job,
so a ``- override /hydra/launcher: joblib`` in one of them shows in each job's config while the sweep
itself runs with the primary config's launcher (hydra issue 3231).
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

# Hydra groups the multirun controller builds before any job is composed
CONTROLLER_GROUPS = ("/hydra/launcher", "/hydra/sweeper")
_SWEEP_FUNCTIONS = ("glob(", "choice(", "range(")


def _multirun(tokens: list[str]) -> bool:
    return any(t in ("-m", "--multirun") or t.replace(" ", "") == "hydra.mode=MULTIRUN" for t in tokens)


def swept_by(group: str, option: str, tokens: list[str]) -> Optional[str]:
    """The command-line token that sweeps ``group`` over several options, ``option`` among them
    (``+experiment=small,large``, ``experiment=glob(*)``), under ``--multirun``; None otherwise."""
    if not _multirun(tokens):
        return None
    for tok in tokens:
        key, sep, value = tok.partition("=")
        if not sep:
            continue
        key = key.lstrip("+~").split("@", 1)[0]
        if key != group:
            continue
        value = value.strip().strip("'\"")
        if value.startswith(_SWEEP_FUNCTIONS):
            return tok
        if "," in value and option in [v.strip() for v in value.split(",")]:
            return tok
    return None


def controller_settings(cfg: Any) -> Iterator[tuple[int, str]]:
    """(line, key) of ``hydra: {launcher: ...}`` / ``hydra: {sweeper: ...}`` in a loaded config."""
    hydra = cfg.data.get("hydra") if isinstance(cfg.data, dict) else None
    if not isinstance(hydra, dict):
        return
    for key in ("launcher", "sweeper"):
        if key in hydra:
            yield cfg.line_of(("hydra", key), nearest=True) or 1, key
