"""Hydra composition failures that are bugs of the job, not inputs preflight could not read.

hydra-core (or preflight's composer) refuses to compose some configs for reasons that do
not depend on what preflight runs: two configs give one node as a mapping and as a list
(``Cannot merge DictConfig with ListConfig``), the launch leaves a mandatory defaults entry
(``group: ???``) unselected, a defaults list names an option file that is not in the
config directory, a config selects a group the defaults list already chose without ``override``, a defaults entry whose
option is a resolver (``${oc.env:X}``). :func:`job_failure` recognises those messages so that the plan rule
PF216 reports them as findings (and the adapter does not also list them as unreadable
inputs); every other failure stays an input error.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from preflight.sources import read_text_limited

# hydra/_internal/config_loader_impl.py (_compose_config_from_defaults_list): OmegaConf's merge error
_MERGE = re.compile(r"In '([^']+)': ConfigTypeError raised while\s+composing config:\s*\n?\s*"
                    r"Cannot merge (DictConfig|ListConfig) with (DictConfig|ListConfig)")
# hydra/_internal/defaults_list.py (_check_not_missing) for a `group: ???` entry left unselected
_MUST = re.compile(r"You must specify '([^']+)'")
# preflight's composer for the same entry
_MUST_COMPOSER = re.compile(r"Could not find '([^']+)/\?\?\?' \(in the defaults list of ([^)]+)\)")
# preflight's composer / hydra-core for an option file that is not there
_NOT_FOUND = re.compile(r"Could not find '([^'?]+)/([^'/?]+)' \(in the defaults list of ([^)]+)\)")
_NOT_FOUND_HYDRA = re.compile(r"In '([^']+)': Could not find '([^'?]+)/([^'/?]+)'")
# hydra/_internal/defaults_list.py (_create_defaults_tree_impl): a second plain entry for a group that
# already has a value (Hydra 1.1 and later need `override group: option`)
_MULTIPLE = re.compile(r"Multiple values for (\S+?)\. To override a value use 'override ([^:']+): ([^']+)'")

# hydra/_internal/defaults_list.py (_update_overrides / InputDefault.resolve_interpolation): a defaults entry whose
# option is a resolver (`- override hydra/launcher: ${oc.env:HYDRA_LAUNCHER}`): a defaults list interpolates only
# config group choices (Hydra issue 1668)
_RESOLVER_ENTRY = re.compile(r"Error resolving interpolation '(\$\{\s*[\w.]+\s*:[^']*\})'(?:,\s*possible interpolation keys)")

_SKIP_DIRS = {".git", ".venv", "venv", "env", "node_modules", "__pycache__", "site-packages", ".tox"}
_MAX_FILES = 3000


@dataclass
class Failure:
    kind: str  # "merge", "mandatory", "missing-option", "multiple", "resolver-entry"
    config: str  # the config named by the message (``config``, ``predictor/pred_1``); "" when none
    # merge: (left type, right type); mandatory: (override key,); missing and multiple: (group, name)
    detail: tuple[str, ...]


def _registers_configs(root: Path) -> bool:
    """Whether some Python file under ``root`` mentions ConfigStore (configs registered by code
    that preflight does not run can supply options a config folder lacks)."""
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.startswith(".")]
        for name in files:
            if not name.endswith(".py"):
                continue
            seen += 1
            if seen > _MAX_FILES:
                return True  # too large to read through: assume it may
            try:
                if "ConfigStore" in read_text_limited(os.path.join(folder, name), errors="replace"):
                    return True
            except OSError:
                continue
    return False


def _has_searchpath(config_dir: Path) -> bool:
    for folder, dirs, files in os.walk(config_dir):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.endswith((".yaml", ".yml")):
                try:
                    if "searchpath" in read_text_limited(os.path.join(folder, name), errors="replace"):
                        return True
                except OSError:
                    continue
    return False


def job_failure(project: Any, app: Any, message: str) -> Optional[Failure]:
    """The job bug a composition error message shows, or None (an input preflight could not read)."""
    found = _MERGE.search(message)
    if found is not None:
        return Failure("merge", found.group(1), (found.group(2), found.group(3)))
    resolver = _RESOLVER_ENTRY.search(message)
    if resolver is not None:
        return Failure("resolver-entry", "", (resolver.group(1),))
    twice = _MULTIPLE.search(message)
    if twice is not None:
        return Failure("multiple", "", (twice.group(2).strip().lstrip("/"), twice.group(3).strip()))
    must = _MUST.search(message)
    composer = _MUST_COMPOSER.search(message)
    if must is not None or composer is not None:
        # only when the launch line is known: without one the user is expected to choose it
        if not project.argv or getattr(app, "how", "") != "@hydra.main":
            return None
        if any(_is_sweep(tok) for tok in project.argv):
            return None  # sweeps are composed without their swept values
        if must is not None:
            return Failure("mandatory", "", (must.group(1),))
        assert composer is not None
        return Failure("mandatory", composer.group(2), (composer.group(1),))
    missing = _NOT_FOUND.search(message)
    core = _NOT_FOUND_HYDRA.search(message) if missing is None else None
    if missing is not None or core is not None:
        if missing is not None:
            group, name, config = missing.group(1), missing.group(2), missing.group(3)
        else:
            assert core is not None
            config, group, name = core.group(1), core.group(2), core.group(3)
        config_dir = getattr(app, "config_dir", None)
        if config_dir is None:
            return None
        if group.startswith("hydra/"):
            return None  # launcher, sweeper, logging options: Hydra plugins supply them
        if group != "hydra" and not (Path(config_dir) / group).is_dir():
            return None
        if any(_overrides_group(tok, group) for tok in [*getattr(app, "overrides", []), *project.argv]):
            return None  # the launch line chose the option: Hydra's own message names it (an input error)
        if _has_searchpath(Path(config_dir)) or _registers_configs(Path(str(project.root))):
            return None
        return Failure("missing-option", config, (group, name))
    return None


def _overrides_group(token: str, group: str) -> bool:
    key = token.lstrip("+~").partition("=")[0].partition("@")[0].strip("/")
    return bool(key) and "=" in token and key == group


def _is_sweep(token: str) -> bool:
    if token in ("-m", "--multirun"):
        return True
    key, eq, value = token.partition("=")
    return bool(eq) and not key.startswith("-") and (("," in value and not value.startswith(("[", "{", "'", '"')))
                                                     or value.startswith(("range(", "choice(", "interval(", "glob(")))


# hydra/grammar/OverrideLexer.g4 (1.1-1.3): ID: (CHAR|'_') (CHAR|DIGIT|'_'|'-')*;
# INT_UNSIGNED: '0' | [1-9] (('_')? DIGIT)*; DOT_PATH: (ID | INT_UNSIGNED) ('.' (ID | INT_UNSIGNED))+
_INT_KEY = re.compile(r"(?:0|[1-9](?:_?\d)*)\Z")


def digit_key_segment(token: str) -> Optional[str]:
    """The key segment of a launch-line override that starts with a digit but is not a plain list index
    (``~transform.20s_labels``: Hydra issue 2674), or None."""
    token = token.strip("'\"")
    if token.startswith("-"):
        return None
    key = token.split("=", 1)[0] if "=" in token else token if token.startswith("~") else None
    if key is None:
        return None
    for segment in re.split(r"[./]", key.lstrip("~+").split("@", 1)[0]):
        if segment[:1].isdigit() and not _INT_KEY.match(segment):
            return segment
    return None


def digit_key_failure(project: Any, message: str) -> bool:
    """A composition stopped by Hydra's override parser on a launch-line key that starts with a digit: a bug
    of the job's launch line (PF158 reports it), not an input preflight could not read."""
    return "OverrideParseException" in message and any(
        digit_key_segment(tok) is not None for tok in getattr(project, "argv", ()) or ())
