"""Config loaders that remember ``file:line`` for every key.

``load_config(source)`` reads JSON, YAML or TOML text into plain data (dicts, lists,
str, int, float, bool, None) and a map from key path to line, so that a fact or a
finding can point at ``ds_config.json:7``. A key path is a tuple of mapping keys and
list indices: ``("zero_optimization", "offload_param", "device")``.

Bad input becomes a :class:`~preflight.diagnostics.FileError` with a line, never a
traceback. JSON is read here. YAML (:mod:`preflight.loaders_yaml`) is composed with a
``SafeLoader`` subclass and turned into data node by node: no Python object is ever
constructed (``!!python/...`` tags are an error), alias expansion is capped (billion-laughs
files fail cleanly) and recursive aliases are refused. TOML: :mod:`preflight.loaders_toml`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from preflight._record import dataclass, field
from preflight.diagnostics import FileError
from preflight.sources import SourceText, kind_of, read_source

KeyPath = tuple[Any, ...]

MAX_YAML_NODES = 100_000  # constructed nodes, aliases expanded
MAX_DUPLICATE_NOTES = 20

_MISSING = object()


@dataclass
class LoadedConfig:
    """A config file as plain data plus the line of every key."""

    path: str  # display path
    kind: str  # "json", "yaml" or "toml"
    data: Any
    lines: dict[KeyPath, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    header: Optional[str] = None  # a YAML file's Hydra ``# @package X`` header (X), if any

    def line_of(self, key_path: Sequence[Any], nearest: bool = False) -> Optional[int]:
        """Line of ``key_path`` (1-based), or None. With ``nearest``, the line of the
        deepest ancestor that has one (for a value inside an inline table, say)."""
        path = tuple(key_path)
        line = self.lines.get(path)
        if line is not None or not nearest:
            return line
        while path:
            path = path[:-1]
            line = self.lines.get(path)
            if line is not None:
                return line
        return None

    def get(self, key_path: Sequence[Any], default: Any = None) -> Any:
        """The value at ``key_path``, or ``default`` when any step is missing."""
        value = _lookup(self.data, key_path)
        return default if value is _MISSING else value

    def has(self, key_path: Sequence[Any]) -> bool:
        return _lookup(self.data, key_path) is not _MISSING


def _lookup(data: Any, key_path: Sequence[Any]) -> Any:
    cur = data
    for key in key_path:
        if isinstance(cur, dict):
            if key not in cur:
                return _MISSING
            cur = cur[key]
        elif isinstance(cur, list) and isinstance(key, int) and not isinstance(key, bool):
            if not -len(cur) <= key < len(cur):
                return _MISSING
            cur = cur[key]
        else:
            return _MISSING
    return cur


def load_config(source: SourceText, skip_python_tags: bool = False) -> Union[LoadedConfig, FileError]:
    """Parse a JSON, YAML or TOML config (by ``source.kind``, else by suffix). ``skip_python_tags``: a YAML
    mapping value tagged ``!!python/...`` leaves its key out (unknown, with a note) instead of failing the
    file, for readers where a missing key is unknown, never a default (a yacs ``merge_from_file``)."""
    kind = source.kind if source.kind in ("json", "yaml", "toml") else kind_of(Path(source.display))
    try:
        if kind == "json":
            return _load_json(source.text, source.display)
        if kind == "yaml":
            from preflight.loaders_yaml import _load_yaml
            return _load_yaml(source.text, source.display, skip_python_tags)
        if kind == "toml":
            from preflight.loaders_toml import _load_toml
            return _load_toml(source.text, source.display)
    except RecursionError:
        return FileError(source.display, f"{kind.upper() if kind else 'config'} nested too deeply to read")
    except MemoryError:
        return FileError(source.display, "config too large to read")
    return FileError(source.display, "not a config file preflight reads (.json, .yaml, .yml, .toml)")


def load_config_text(text: str, kind: str, display: str = "<config>") -> Union[LoadedConfig, FileError]:
    """``load_config`` for text in memory (tests, configs embedded in other files)."""
    source = SourceText(path=Path(display), display=display, kind=kind, raw=text.encode("utf-8"),
                        text=text)
    return load_config(source)


def load_config_file(path: Path, display: str, kind: Optional[str] = None) -> Optional[LoadedConfig]:
    """The config file at ``path`` read as ``kind`` (default: JSON for a ``.json`` name, else YAML) and
    shown as ``display``; None when it is not a file, cannot be read or does not parse (rules that open a
    config the plan did not load: an accelerate ``--config_file``, a Hydra option file)."""
    if not os.path.isfile(path):
        return None
    source = read_source(path, display, kind or ("json" if path.suffix == ".json" else "yaml"))
    if not isinstance(source, SourceText):
        return None
    loaded = load_config(source)
    return loaded if isinstance(loaded, LoadedConfig) else None


# --------------------------------------------------------------------------- JSON

_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


def _load_json(text: str, display: str) -> Union[LoadedConfig, FileError]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        from preflight.loaders_jsonc import without_comments

        bare = without_comments(text)
        if bare is None:
            return FileError(display, f"invalid JSON: {exc.msg}", line=exc.lineno, column=exc.colno)
        try:
            data = json.loads(bare)
        except (json.JSONDecodeError, RecursionError, ValueError):
            return FileError(display, f"invalid JSON: {exc.msg}", line=exc.lineno, column=exc.colno)
        return LoadedConfig(display, "json", data, _json_lines(bare),
                            notes=[f"{display}: JSON with // or /* */ comments, read with the comments left out (the "
                                   "projects that write such files strip them before json.loads; a strict JSON "
                                   "reader, DeepSpeed's among them, rejects the file)"])
    except RecursionError:
        return FileError(display, "JSON nested too deeply to read", line=1)
    except ValueError as exc:  # e.g. integer string too long to convert
        return FileError(display, f"invalid JSON: {exc}")
    return LoadedConfig(display, "json", data, _json_lines(text))


class _Frame:
    __slots__ = ("expect_key", "index", "is_obj", "key", "path", "pending")

    def __init__(self, is_obj: bool, path: KeyPath) -> None:
        self.is_obj = is_obj
        self.path = path
        self.key: Any = None
        self.expect_key = is_obj
        self.index = 0
        self.pending = not is_obj  # an array element is about to start


def _json_lines(text: str) -> dict[KeyPath, int]:
    """Key path -> line for valid JSON, in one linear pass over its tokens."""
    lines: dict[KeyPath, int] = {}
    stack: list[_Frame] = []
    top: Optional[_Frame] = None
    line = 1
    pos = 0
    count = text.count
    for match in _JSON_TOKEN.finditer(text):
        start = match.start()
        line += count("\n", pos, start)
        pos = start
        tok = match.group()
        c = tok[0]
        if top is not None and top.expect_key and c == '"':
            if "\\" in tok:
                try:
                    key = json.loads(tok)
                except ValueError:
                    key = tok[1:-1]
            else:
                key = tok[1:-1]
            top.key = key
            top.expect_key = False
            lines[tuple([*top.path, key])] = line
            continue
        if c == ",":
            if top is not None:
                if top.is_obj:
                    top.expect_key = True
                else:
                    top.index += 1
                    top.pending = True
            continue
        if c == ":":
            continue
        if c == "}" or c == "]":
            if stack:
                stack.pop()
            top = stack[-1] if stack else None
            continue
        # a value starts here
        if top is None:
            path: KeyPath = ()
            lines.setdefault((), line)
        elif top.is_obj:
            path = (*top.path, top.key)
        else:
            path = (*top.path, top.index)
            if top.pending:
                lines[path] = line
                top.pending = False
        if c == "{" or c == "[":
            top = _Frame(c == "{", path)
            stack.append(top)
    lines.setdefault((), 1)
    return lines
