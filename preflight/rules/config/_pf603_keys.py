"""PF603 for mapping keys and tuple-looking values. A bare ``ON:``/``OFF:``/``YES:``/``NO:`` key of a YAML config is the boolean
true or false to every YAML 1.1 reader (PyYAML, and OmegaConf, whose loader is PyYAML's SafeLoader), so
the file's key is ``True``, not the string ``"ON"`` (yacs issue 48: ``DCN: {ON: True}`` loads as
``{True: True}`` and cannot be merged into the ``MODEL.DCN.ON`` default). A plain value written as a
Python tuple (``pix_dim: (0.5, 0.5, 0.781)``) is a string: YAML has no tuple syntax (flow sequences
are ``[...]``), so the code receives ``"(0.5, 0.5, 0.781)"`` (hydra issue 1135)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from preflight.validate import Problem

_WORDS = ("on", "off", "yes", "no")
_BOOL_TAG = "tag:yaml.org,2002:bool"
_STR_TAG = "tag:yaml.org,2002:str"
_NUMBER = r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*"
_TUPLE = re.compile(rf"^\((?:{_NUMBER},)+(?:{_NUMBER})?\)$")


def _traps(node: Any, path: tuple[str, ...], depth: int = 0) -> Iterator[tuple[str, tuple[str, ...], Any]]:
    """("key", path, key node) of boolean-word keys and ("tuple", path, value node) of tuple-looking values."""
    import yaml

    if depth > 100:
        return
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                name = str(key.value)
                if key.tag == _BOOL_TAG and key.style is None and name.lower() in _WORDS:
                    yield "key", (*path, name), key
                if isinstance(value, yaml.ScalarNode) and value.tag == _STR_TAG and value.style is None \
                        and _TUPLE.match(str(value.value)):
                    yield "tuple", (*path, name), value
                yield from _traps(value, (*path, name), depth + 1)
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            yield from _traps(value, (*path, str(i)), depth + 1)


def _evaluates(project: Any) -> bool:
    """A script of the job parses strings as Python (``ast.literal_eval``, ``eval``): a tuple string is meant."""
    for script in getattr(project, "scripts", []):
        text = script.source.text
        if "literal_eval" in text or "eval(" in text:
            return True
    return False


def bool_keys(config: Any, text: str, project: Any = None) -> list[Problem]:
    """A problem for each plain YAML 1.1 boolean word used as a mapping key of ``config``, and for each
    plain value written as a Python tuple of numbers (unless the job evaluates strings as Python)."""
    from preflight.validate import Problem

    if config.kind != "yaml" or not (any(w in text.lower() for w in _WORDS) or "(" in text):
        return []
    try:
        import yaml

        from preflight.loaders_yaml import composed_yaml

        root = composed_yaml(text)
    except (yaml.YAMLError, RecursionError, ValueError):
        return []
    out = []
    evaluates: Any = None
    for kind, path, key in _traps(root, ()):
        dotted = ".".join(path)
        if kind == "tuple":
            if evaluates is None:
                evaluates = _evaluates(project)
            if evaluates:
                continue
            items = str(key.value).strip("()").rstrip(", ")
            out.append(Problem(config.path, key.start_mark.line + 1, dotted, "warning", "yaml11-tuple",
                               f"{key.value} is the string {str(key.value)!r}, not a tuple: YAML has no tuple "
                               f"syntax, so `{dotted}` reaches the code (or the class Hydra instantiates) as "
                               f"text and fails where numbers are expected; write a list: [{items}]"))
            continue
        word = path[-1]
        value = word.lower() in ("on", "yes")
        out.append(Problem(config.path, key.start_mark.line + 1, dotted, "warning", "yaml11-bool-key",
                           f"the key `{word}:` is the boolean {str(value).lower()} in YAML 1.1 (PyYAML, OmegaConf), "
                           f"not the string {word!r}: the file holds {{{value}: ...}} where `{dotted}` was meant, so "
                           f"a merge into defaults that name `{word}` fails, or the setting is never read; quote the "
                           f"key: \"{word}\":"))
    return out
