"""The files of a Hydra config directory (helper of :mod:`preflight.adapters.hydra_compose`): finding a
config file by group and name inside the directory (never outside it), reading it with its
``# @package`` header, YAML errors with file and line, and OmegaConf-style merging."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.hydra_values import (  # noqa: F401 (Unknown, resolve: the adapter's names)
    _ABSENT,
    MAX_DEPTH,
    MISSING,
    Unknown,
    parse_value,
    resolve,
)

from preflight.sources import read_text_limited

_PACKAGE_HEADER = re.compile(r"^\s*#\s*@package\s+(\S+)\s*$")


class ComposeError(Exception):
    """Composition failed; the message says why (as Hydra would). ``file`` and ``line``
    locate the defaults entry at fault when it is in a config file."""

    def __init__(self, message: str, file: Optional[Path] = None, line: Optional[int] = None,
                 column: Optional[int] = None) -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.column = column


class OutsideConfigDir(ComposeError):
    """A config name that leaves the config directory (a ``..`` component, an absolute path,
    a symbolic link out). Such a file is never read: the scheduler gate may run preflight
    with more rights than the config's author, and what it reads can show up in its output."""

    def __init__(self, config_path: str, symlink: bool = False) -> None:
        self.config_path = config_path
        self.symlink = symlink
        super().__init__(f"'{config_path}' is outside the config directory")

    def why(self) -> str:
        return "through a symbolic link" if self.symlink else "a '..' component or an absolute path"


@dataclass
class ConfigFile:
    path: Path
    header: Optional[str]
    defaults: list[Any]
    body: dict[str, Any]


def _header(text: str) -> Optional[str]:
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line.lstrip().startswith("#"):
            return None
        match = _PACKAGE_HEADER.match(line)
        if match:
            return match.group(1)
    return None


def read_config_file(path: Path) -> ConfigFile:
    """A config file as OmegaConf reads it (``1e-4`` is a float), split into its header,
    defaults list and body."""
    from omegaconf import OmegaConf

    try:
        text = read_text_limited(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise ComposeError(f"cannot read {path}: {exc}") from None
    try:
        data = _omegaconf_yaml(text) if text.strip() else {}
    except Exception as exc:  # omegaconf / yaml errors
        located = yaml_error(exc, path)
        if located is not None:
            raise located from None
        raise ComposeError(f"cannot parse {path}: {exc}") from None
    if data is None:
        data = OmegaConf.to_container(OmegaConf.create(text), resolve=False)
    if not isinstance(data, dict):
        raise ComposeError(f"{path}: a Hydra config must be a mapping")
    defaults = data.pop("defaults", None)
    if defaults is not None and not isinstance(defaults, list):
        raise ComposeError(f"{path}: 'defaults' must be a list")
    return ConfigFile(path, _header(text), list(defaults or []), data)


def yaml_error(exc: Optional[BaseException], path: Optional[Path] = None,
               config_dir: Optional[Path] = None) -> Optional[ComposeError]:
    """A YAML syntax error in ``exc`` (or what it was raised from) as one located
    :class:`ComposeError`: the file (``path``, else the one the error names when it is inside
    ``config_dir``) and line, and the problem in one line; None when there is none."""
    import yaml

    from preflight.loaders_yaml import _yaml_error

    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, yaml.MarkedYAMLError):
            mark = exc.problem_mark or exc.context_mark
            file = path
            if file is None and mark is not None and config_dir is not None and mark.name:
                named = os.path.realpath(mark.name)
                if within(os.path.realpath(config_dir), named):
                    file = Path(named)
            located = _yaml_error("", exc)  # the words `validate` and `audit --config` use
            if file is None:
                return ComposeError(located.message)
            return ComposeError(located.message, file, located.line, located.column)
        exc = exc.__cause__ or exc.__context__
    return None


def _omegaconf_yaml(text: str) -> Any:
    """YAML as OmegaConf reads it (its loader: YAML 1.1 plus ``1e-4`` floats, duplicate keys
    rejected), without building OmegaConf nodes; None when that loader is not available."""
    import yaml

    try:
        from omegaconf._utils import get_yaml_loader
    except ImportError:
        return None
    return yaml.load(text, Loader=get_yaml_loader())  # a SafeLoader subclass


def merge(dest: dict[str, Any], src: dict[str, Any]) -> dict[str, Any]:
    """``OmegaConf.merge`` on plain data: mappings merge key by key, anything else
    (lists included) replaces, and ``???`` never replaces a value that is already set."""
    out = dict(dest)
    for key, value in src.items():
        old = out.get(key, _ABSENT)
        if isinstance(value, dict) and isinstance(old, dict):
            out[key] = merge(old, value)
        elif value == MISSING and old is not _ABSENT:
            continue
        else:
            out[key] = _copy(value)
    return out


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def within(root: str, path: str) -> bool:
    """``path`` is ``root`` or below it (both already normalised or resolved)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def check_name(config_dir: Path, config_path: str) -> None:
    """Raise :class:`OutsideConfigDir` when ``config_path`` leaves ``config_dir`` by its
    spelling (a ``..`` component, an absolute path); nothing on disk is looked at."""
    root = os.path.normpath(str(config_dir))
    if not within(root, os.path.normpath(os.path.join(root, config_path))):
        raise OutsideConfigDir(config_path)


def find_file(config_dir: Path, config_path: str) -> Optional[Path]:
    """The YAML file ``config_path`` names in ``config_dir``, or None. A name that leaves the
    directory raises :class:`OutsideConfigDir` before anything outside is looked at; a file
    inside that is a symbolic link out raises it too."""
    check_name(config_dir, config_path)
    base = config_dir / config_path
    for candidate in (base, base.with_name(base.name + ".yaml"), base.with_name(base.name + ".yml")):
        if os.path.isfile(candidate) and candidate.suffix in (".yaml", ".yml"):
            if not within(os.path.realpath(config_dir), os.path.realpath(candidate)):
                raise OutsideConfigDir(config_path, symlink=True)
            return candidate
    return None
