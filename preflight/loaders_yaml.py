"""YAML for :mod:`preflight.loaders`: composed with a ``SafeLoader`` subclass and turned into
plain data here, node by node, remembering the line of every key. No Python object is ever
constructed (``!!python/...`` tags are an error), alias expansion is capped at
:data:`~preflight.loaders.MAX_YAML_NODES` (billion-laughs files fail cleanly) and recursive
aliases are refused.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Union

from preflight.diagnostics import FileError
from preflight.loaders import MAX_DUPLICATE_NOTES, MAX_YAML_NODES, KeyPath, LoadedConfig

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


def _python_tag(tag: str) -> bool:
    return tag.startswith(_YAML_STD + "python/") or tag.startswith("!!python/")


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


def _load_yaml(text: str, display: str, skip_python_tags: bool = False) -> Union[LoadedConfig, FileError]:
    import yaml

    class _Loader(yaml.SafeLoader):
        """Composes nodes only; preflight builds plain data from them itself."""

    notes: list[str] = []
    try:
        loader = _Loader(text)  # checks every character: may raise ReaderError
    except yaml.reader.ReaderError as exc:
        return _yaml_reader_error(display, text, exc)
    rest: list[Any] = []  # the documents after the first, when each parses
    try:
        try:
            root = loader.get_node() if loader.check_node() else None
            try:
                more = loader.check_node()
                while loader.check_node() and len(rest) < 64:
                    rest.append(loader.get_node())
            except yaml.YAMLError:
                more, rest = True, []
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
    if more and root is not None and _disjoint_mappings([root, *rest]):
        # seungwonpark/melgan config/default.yaml: ``data:`` / ``---`` / ``train:`` / ``---`` / ``audio:`` ...,
        # read with ``yaml.load_all`` into one dict (utils/hparams.py:16-23): mappings with no key in common
        # compose into one mapping whichever document wins
        notes.append(f"{display} holds {1 + len(rest)} YAML documents, mappings with no top-level key in common: "
                     "read as one mapping")
        root = yaml.MappingNode("tag:yaml.org,2002:map", [pair for node in [root, *rest] for pair in node.value],
                                start_mark=root.start_mark, end_mark=rest[-1].end_mark)
    elif more:
        notes.append(f"{display} holds more than one YAML document; preflight reads the first")
    else:  # one document (or none): what yaml.compose(text) gives, kept for composed_yaml
        _COMPOSED[:] = [(text, root)]
    if root is None:
        return LoadedConfig(display, "yaml", None, {(): 1}, notes)
    builder = _YamlBuilder(loader, display, notes)
    builder.skip_python = skip_python_tags
    try:
        data = builder.build(root, ())
    except YamlError as exc:
        return FileError(display, exc.message, line=exc.line)
    except RecursionError:
        return FileError(display, "YAML nested too deeply to read", line=1)
    builder.lines[()] = root.start_mark.line + 1
    return LoadedConfig(display, "yaml", data, builder.lines, notes, _package_header(text))


def _disjoint_mappings(nodes: list[Any]) -> bool:
    """Every document a mapping of plain scalar keys, no key in two of them (a Kubernetes file's documents
    all have ``kind``: not one mapping)."""
    import yaml

    seen: set[str] = set()
    if len(nodes) < 2:
        return False
    for node in nodes:
        if not isinstance(node, yaml.MappingNode):
            return False
        for key, _value in node.value:
            if not isinstance(key, yaml.ScalarNode) or key.value in seen or key.value == "<<":
                return False
            seen.add(key.value)
    return True


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
        self.skip_python = False  # a mapping value tagged !!python/... leaves its key out (unknown)

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
        if _python_tag(tag):
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
            if self.skip_python and _python_tag(value_node.tag or ""):
                # facebookresearch/MaskFormer configs/ade20k-150/Base-ADE20K-150.yaml:34 (and Mask2Former's):
                # ``MIN_SIZE_TRAIN: !!python/object/apply:eval [...]``, which yacs evaluates: never constructed
                self.notes.append(f"{self.display}:{line}: {key!r} is a {_short_tag(value_node.tag)} value, "
                                  "never constructed: left unknown")
                out.pop(key, None)
                continue
            self.lines[tuple([*path, key])] = line
            out[key] = self.build(value_node, (*path, key))
        return out
