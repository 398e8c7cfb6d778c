"""PF603 for mapping keys: a bare ``ON:``/``OFF:``/``YES:``/``NO:`` key of a YAML config is the boolean
true or false to every YAML 1.1 reader (PyYAML, and OmegaConf, whose loader is PyYAML's SafeLoader), so
the file's key is ``True``, not the string ``"ON"`` (yacs issue 48: ``DCN: {ON: True}`` loads as
``{True: True}`` and cannot be merged into the ``MODEL.DCN.ON`` default)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from preflight.validate import Problem

_WORDS = ("on", "off", "yes", "no")
_BOOL_TAG = "tag:yaml.org,2002:bool"


def _bool_keys(node: Any, path: tuple[str, ...], depth: int = 0) -> Iterator[tuple[tuple[str, ...], Any]]:
    import yaml

    if depth > 100:
        return
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                name = str(key.value)
                if key.tag == _BOOL_TAG and key.style is None and name.lower() in _WORDS:
                    yield (*path, name), key
                yield from _bool_keys(value, (*path, name), depth + 1)
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            yield from _bool_keys(value, (*path, str(i)), depth + 1)


def bool_keys(config: Any, text: str) -> list[Problem]:
    """A problem for each plain YAML 1.1 boolean word used as a mapping key of ``config``."""
    from preflight.validate import Problem

    if config.kind != "yaml" or not any(w in text.lower() for w in _WORDS):
        return []
    try:
        import yaml

        from preflight.loaders_yaml import composed_yaml

        root = composed_yaml(text)
    except (yaml.YAMLError, RecursionError, ValueError):
        return []
    out = []
    for path, key in _bool_keys(root, ()):
        word = path[-1]
        value = word.lower() in ("on", "yes")
        dotted = ".".join(path)
        out.append(Problem(config.path, key.start_mark.line + 1, dotted, "warning", "yaml11-bool-key",
                           f"the key `{word}:` is the boolean {str(value).lower()} in YAML 1.1 (PyYAML, OmegaConf), "
                           f"not the string {word!r}: the file holds {{{value}: ...}} where `{dotted}` was meant, so "
                           f"a merge into defaults that name `{word}` fails, or the setting is never read; quote the "
                           f"key: \"{word}\":"))
    return out
