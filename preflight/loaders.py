"""Config loaders that remember ``file:line`` for every key.

``load_config(source)`` reads JSON, YAML or TOML text into plain data (dicts, lists,
str, int, float, bool, None) and a map from key path to line, so that a fact or a
finding can point at ``ds_config.json:7``. A key path is a tuple of mapping keys and
list indices: ``("zero_optimization", "offload_param", "device")``.

Bad input becomes a :class:`~preflight.diagnostics.FileError` with a line, never a
traceback. YAML is composed with a ``SafeLoader`` subclass and turned into data here,
node by node: no Python object is ever constructed (``!!python/...`` tags are an
error), alias expansion is capped (billion-laughs files fail cleanly) and recursive
aliases are refused.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from preflight._record import dataclass, field
from preflight.diagnostics import FileError
from preflight.sources import SourceText, kind_of

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


def load_config(source: SourceText) -> Union[LoadedConfig, FileError]:
    """Parse a JSON, YAML or TOML config (by ``source.kind``, else by suffix)."""
    kind = source.kind if source.kind in ("json", "yaml", "toml") else kind_of(Path(source.display))
    try:
        if kind == "json":
            return _load_json(source.text, source.display)
        if kind == "yaml":
            return _load_yaml(source.text, source.display)
        if kind == "toml":
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


# --------------------------------------------------------------------------- JSON

_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


def _load_json(text: str, display: str) -> Union[LoadedConfig, FileError]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return FileError(display, f"invalid JSON: {exc.msg}", line=exc.lineno, column=exc.colno)
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


# --------------------------------------------------------------------------- YAML

_YAML_STD = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_YAML_STD + t for t in ("null", "bool", "int", "float", "str")}
_TEXT_TAGS = {_YAML_STD + t for t in ("timestamp", "binary")}
_SEQ_TAGS = {_YAML_STD + t for t in ("seq", "omap", "pairs")}
_MAP_TAGS = {_YAML_STD + t for t in ("map", "set")}
_MERGE_TAG = _YAML_STD + "merge"


class YamlError(Exception):
    def __init__(self, message: str, line: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_YAML_STD):] if tag.startswith(_YAML_STD) else tag


# the text and node tree of the last single-document YAML file composed by _load_yaml: the
# validator reads the same file's scalars next (validate_yaml), and composing is most of the cost
_COMPOSED: list[tuple[str, Any]] = []


def composed_yaml(text: str) -> Any:
    """``yaml.compose(text, Loader=yaml.SafeLoader)``, reusing the tree of the last load of the
    same text (nodes are only read, never changed, by the loader and the validator)."""
    entry = _COMPOSED[0] if _COMPOSED else None  # one read: another thread may replace it
    if entry is not None and entry[0] == text:
        return entry[1]
    import yaml

    return yaml.compose(text, Loader=yaml.SafeLoader)


def _load_yaml(text: str, display: str) -> Union[LoadedConfig, FileError]:
    import yaml

    class _Loader(yaml.SafeLoader):
        """Composes nodes only; preflight builds plain data from them itself."""

    notes: list[str] = []
    try:
        loader = _Loader(text)  # checks every character: may raise ReaderError
    except yaml.reader.ReaderError as exc:
        return _yaml_reader_error(display, text, exc)
    try:
        try:
            root = loader.get_node() if loader.check_node() else None
            try:
                more = loader.check_node()
            except yaml.YAMLError:
                more = True
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        return _yaml_error(display, exc)
    except yaml.reader.ReaderError as exc:
        return _yaml_reader_error(display, text, exc)
    except yaml.YAMLError as exc:
        return FileError(display, f"invalid YAML: {exc}")
    except RecursionError:
        return FileError(display, "YAML nested too deeply to read", line=1)
    if more:
        notes.append(f"{display} holds more than one YAML document; preflight reads the first")
    else:  # one document (or none): what yaml.compose(text) gives, kept for composed_yaml
        _COMPOSED[:] = [(text, root)]
    if root is None:
        return LoadedConfig(display, "yaml", None, {(): 1}, notes)
    builder = _YamlBuilder(loader, display, notes)
    try:
        data = builder.build(root, ())
    except YamlError as exc:
        return FileError(display, exc.message, line=exc.line)
    except RecursionError:
        return FileError(display, "YAML nested too deeply to read", line=1)
    builder.lines[()] = root.start_mark.line + 1
    return LoadedConfig(display, "yaml", data, builder.lines, notes, _package_header(text))


_PACKAGE_HEADER = re.compile(r"^\s*#\s*@package\s+(\S+)\s*$")


def _package_header(text: str) -> Optional[str]:
    """``_global_`` for a file whose leading comment lines hold ``# @package _global_`` (Hydra)."""
    for line in text.splitlines()[:50]:
        if not line.strip():
            continue
        if not line.lstrip().startswith("#"):
            return None
        m = _PACKAGE_HEADER.match(line)
        if m:
            return m.group(1)
    return None


def _yaml_reader_error(display: str, text: str, exc: Any) -> FileError:
    """A character YAML does not allow (control characters and the like)."""
    position = max(0, min(int(getattr(exc, "position", 0) or 0), len(text)))
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    char = getattr(exc, "character", None)
    what = f"U+{char:04X}" if isinstance(char, int) else "a character"
    return FileError(display, f"invalid YAML: {what} is not allowed in YAML ({exc.reason})",
                     line=line, column=column)


def _yaml_error(display: str, exc: Any) -> FileError:
    problem = exc.problem or exc.context or "cannot parse"
    message = f"invalid YAML: {problem}"
    if exc.context and exc.problem:
        message += f" ({exc.context}"
        if exc.context_mark is not None and exc.problem_mark is not None \
                and exc.context_mark.line != exc.problem_mark.line:
            message += f" at line {exc.context_mark.line + 1}"
        message += ")"
    mark = exc.problem_mark or exc.context_mark
    if mark is None:
        return FileError(display, message)
    return FileError(display, message, line=mark.line + 1, column=mark.column + 1)


class _YamlBuilder:
    def __init__(self, loader: Any, display: str, notes: list[str]) -> None:
        import yaml

        self.yaml = yaml
        self.loader = loader
        self.display = display
        self.notes = notes
        self.lines: dict[KeyPath, int] = {}
        self.count = 0
        self.active: set[int] = set()
        self.duplicates = 0

    def build(self, node: Any, path: KeyPath) -> Any:
        self.count += 1
        if self.count > MAX_YAML_NODES:
            raise YamlError(
                f"YAML expands to more than {MAX_YAML_NODES} values through aliases "
                "(an alias bomb?); not read", node.start_mark.line + 1)
        if id(node) in self.active:
            raise YamlError("recursive YAML alias (a node contains itself); not read",
                            node.start_mark.line + 1)
        tag = node.tag or ""
        if tag.startswith(_YAML_STD + "python/") or tag.startswith("!!python/"):
            raise YamlError(f"unsupported YAML tag {_short_tag(tag)!r} "
                            "(preflight never constructs Python objects)", node.start_mark.line + 1)
        yaml = self.yaml
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                self._check_tag(node, _SEQ_TAGS)
                out = []
                for i, child in enumerate(node.value):
                    self.lines[tuple([*path, i])] = child.start_mark.line + 1
                    out.append(self.build(child, (*path, i)))
                return out
            self._check_tag(node, _MAP_TAGS)
            return self._mapping(node, path)
        finally:
            self.active.discard(id(node))

    def _check_tag(self, node: Any, allowed: set[str]) -> None:
        if node.tag in allowed:
            return
        if node.tag.startswith(_YAML_STD):
            raise YamlError(f"unsupported YAML tag {_short_tag(node.tag)!r} on a "
                            f"{node.id}", node.start_mark.line + 1)
        self.notes.append(f"{self.display}:{node.start_mark.line + 1}: unknown YAML tag "
                          f"{node.tag!r} read as plain data")

    def _scalar(self, node: Any) -> Any:
        tag = node.tag
        if tag in _SCALAR_TAGS:
            return self.loader.yaml_constructors[tag](self.loader, node)
        if tag in _TEXT_TAGS:
            return str(node.value)
        if tag.startswith(_YAML_STD):
            raise YamlError(f"unsupported YAML tag {_short_tag(tag)!r} on a scalar",
                            node.start_mark.line + 1)
        self.notes.append(f"{self.display}:{node.start_mark.line + 1}: unknown YAML tag "
                          f"{tag!r} read as a string")
        return str(node.value)

    def _key(self, node: Any) -> Any:
        if not isinstance(node, self.yaml.ScalarNode):
            raise YamlError(f"unsupported YAML key (a {node.id} used as a mapping key)",
                            node.start_mark.line + 1)
        self.count += 1
        return self._scalar(node)

    def _mapping(self, node: Any, path: KeyPath) -> dict[Any, Any]:
        yaml = self.yaml
        out: dict[Any, Any] = {}
        explicit: list[tuple[Any, Any]] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
                for src in reversed(sources):
                    if not isinstance(src, yaml.MappingNode):
                        raise YamlError("a YAML merge key ('<<') needs a mapping or a list of "
                                        "mappings", src.start_mark.line + 1)
                    merged = self.build(src, path)
                    out.update(merged)
            else:
                explicit.append((key_node, value_node))
        seen: dict[Any, int] = {}
        for key_node, value_node in explicit:
            key = self._key(key_node)
            line = key_node.start_mark.line + 1
            if key in seen:
                self.duplicates += 1
                if self.duplicates <= MAX_DUPLICATE_NOTES:
                    self.notes.append(f"{self.display}:{line}: duplicate key {key!r} (also at line "
                                      f"{seen[key]}); the later value wins")
            seen[key] = line
            self.lines[tuple([*path, key])] = line
            out[key] = self.build(value_node, (*path, key))
        return out


# --------------------------------------------------------------------------- TOML

_TOML_POS = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_module() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib
    try:
        import tomli
    except ImportError:
        return None
    return tomli


def _load_toml(text: str, display: str) -> Union[LoadedConfig, FileError]:
    module = _toml_module()
    if module is None:
        return FileError(display, "reading TOML needs Python 3.11+ or the 'tomli' package")
    try:
        data = module.loads(text)
    except module.TOMLDecodeError as exc:
        message = str(getattr(exc, "msg", "") or exc)
        line = getattr(exc, "lineno", None)
        column = getattr(exc, "colno", None)
        found = _TOML_POS.search(message)
        if message.endswith("(at end of document)"):
            message = message[: -len("(at end of document)")].rstrip()
            line = text.count("\n") + 1
        elif found:
            line, column = int(found.group(1)), int(found.group(2))
            message = message[: found.start()]
        elif line is None:
            tail = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
            if tail:
                line, column = int(tail.group(1)), int(tail.group(2))
        return FileError(display, f"invalid TOML: {message}", line=line, column=column)
    return LoadedConfig(display, "toml", _plain(data), _toml_lines(text))


def _plain(value: Any) -> Any:
    """TOML dates and times as ISO strings, so the data stays JSON-compatible."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "isoformat") and not isinstance(value, (str, int, float)):
        return value.isoformat()
    return value


def _toml_key(text: str, i: int) -> tuple[list[str], int]:
    """A (dotted) key starting at ``text[i]``: its parts and the index after it."""
    parts: list[str] = []
    n = len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            return parts, i
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            raw = text[i : j + 1]
            try:
                parts.append(json.loads(raw))
            except ValueError:
                parts.append(raw[1:-1])
            i = j + 1
        elif c == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            parts.append(text[i + 1 : j])
            i = j + 1
        else:
            m = _BARE_KEY.match(text, i)
            if not m:
                return parts, i
            parts.append(m.group())
            i = m.end()
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] == ".":
            i += 1
            continue
        return parts, i


class _TomlValueScan:
    """Tracks multi-line strings and bracket depth across the lines of one value."""

    def __init__(self) -> None:
        self.depth = 0
        self.ml: Optional[str] = None  # '"""' or "'''" while inside a multi-line string

    def busy(self) -> bool:
        return self.depth > 0 or self.ml is not None

    def feed(self, text: str, i: int = 0) -> None:
        n = len(text)
        while i < n:
            if self.ml is not None:
                j = text.find(self.ml, i)
                if j < 0:
                    return
                i = j + 3
                self.ml = None
                continue
            c = text[i]
            if c == "#":
                return
            if text.startswith('"""', i) or text.startswith("'''", i):
                self.ml = text[i : i + 3]
                i += 3
            elif c == '"':
                i += 1
                while i < n and text[i] != '"':
                    i += 2 if text[i] == "\\" else 1
                i += 1
            elif c == "'":
                j = text.find("'", i + 1)
                i = n if j < 0 else j + 1
            else:
                if c in "[{":
                    self.depth += 1
                elif c in "]}":
                    self.depth = max(0, self.depth - 1)
                i += 1


def _toml_lines(text: str) -> dict[KeyPath, int]:
    lines: dict[KeyPath, int] = {(): 1}
    table: KeyPath = ()
    aot: dict[KeyPath, int] = {}  # array-of-tables path -> current index
    scan = _TomlValueScan()

    def real(parts: list[str]) -> KeyPath:
        out: KeyPath = ()
        for part in parts:
            out = (*out, part)
            if out in aot:
                out = (*out, aot[out])
        return out

    for number, line in enumerate(text.splitlines(), start=1):
        if scan.busy():
            scan.feed(line)
            continue
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        offset = len(line) - len(stripped)
        if stripped.startswith("[["):
            parts, _ = _toml_key(line, offset + 2)
            if parts:
                base = (*real(parts[:-1]), parts[-1])
                aot[base] = aot.get(base, -1) + 1
                lines.setdefault(base, number)
                table = (*base, aot[base])
                lines[table] = number
            continue
        if stripped.startswith("["):
            parts, _ = _toml_key(line, offset + 1)
            if parts:
                table = real(parts)
                lines[table] = number
            continue
        parts, end = _toml_key(line, offset)
        if not parts or end >= len(line) or line[end] != "=":
            continue
        for k in range(1, len(parts)):
            lines.setdefault((*table, *parts[:k]), number)
        lines[tuple([*table, *parts])] = number
        scan.feed(line, end + 1)
    return lines
