"""YAML as the libraries' readers see it, for :mod:`preflight.validate`: each scalar with the tag
PyYAML resolves for it (``1e-4`` is a string, ``no`` a boolean, ``010`` octal 8), and template
files (placeholders that a script fills in before the file is a valid config)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from preflight.loaders import MAX_YAML_NODES
from preflight.loaders_yaml import composed_yaml


@dataclass(frozen=True)
class Scalar:
    text: str
    tag: str  # PyYAML's resolved tag, short: str, int, float, bool, null
    plain: bool
    line: int


def yaml_scalars(text: str) -> dict[tuple[Any, ...], Scalar]:
    """Plain and quoted scalars of the first YAML document by key path (mapping keys as
    PyYAML reads them), with PyYAML's tag. Composes nodes only; aliases are walked once."""
    import yaml

    try:
        root = composed_yaml(text)
    except yaml.YAMLError:
        return {}
    out: dict[tuple[Any, ...], Scalar] = {}
    seen: set[int] = set()
    stack: list[tuple[Any, tuple[Any, ...]]] = [(root, ())] if root is not None else []
    count = 0
    loader = yaml.SafeLoader("")
    while stack and count < MAX_YAML_NODES:
        node, path = stack.pop()
        count += 1
        if isinstance(node, yaml.ScalarNode):
            tag = node.tag.rsplit(":", 1)[-1]
            out[path] = Scalar(str(node.value), tag, node.style is None, node.start_mark.line + 1)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, (*path, i)) for i, child in enumerate(node.value))
        elif isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    continue
                try:
                    key = loader.construct_object(key_node) if key_node.tag != "tag:yaml.org,2002:merge" else None
                except Exception:
                    key = key_node.value
                if key is None:
                    continue
                stack.append((value_node, (*path, key)))
    loader.dispose()
    return out


# a bare upper-case name where a JSON/YAML value goes: `"train_micro_batch_size_per_gpu": BATCH_SIZE,`
# (DeepSpeedExamples' *_TEMPLATE.json files, filled by `sed` in their launch scripts)
_PLACEHOLDER = re.compile(r"""[:\[,]\s*([A-Z][A-Z0-9_]{2,})\s*(?=[,}\]\n]|$)""", re.M)
_JINJA = re.compile(r"\{\{\s*([A-Za-z_][\w.]*)\s*\}\}")
# a value that lists its choices for the user to pick one: `llama_model: "ckpt/vicuna-13b/" or "ckpt/vicuna-7b/"`
# (DAMO-NLP-SG/Video-LLaMA's train_configs; YAML cannot read a quoted scalar followed by more text)
_QUOTED = r"""(?:"[^"\n]*"|'[^'\n]*')"""
_ALTERNATIVES = re.compile(r"(?<=:)([ \t]+)(" + _QUOTED + r")((?:[ \t]+or[ \t]+" + _QUOTED + r")+)")


_WORDS = ("NO", "YES", "ON", "OFF", "TRUE", "FALSE", "NULL", "NAN", "INF")


def template_placeholders(text: str) -> tuple[str, ...]:
    """The placeholders of a template config (a file a script fills before use), or ()."""
    names = [m.group(1) for m in _PLACEHOLDER.finditer(text)]
    names += [m.group(1) for m in _JINJA.finditer(text)]
    names += [f"{m.group(2)} or ..." for m in _ALTERNATIVES.finditer(text)]
    names = [n for n in names if n not in _WORDS]
    return tuple(dict.fromkeys(names))


def filled_template(text: str) -> str | None:
    """The text of a template with its placeholders filled in the way its script would (a bare
    upper-case name becomes ``1``, a list of quoted choices its first choice), line for line, or
    None when the template is a Jinja one (``{{ }}``/``{% %}``: its blocks decide what the file is)."""
    if "{{" in text or "{%" in text:
        return None
    out = _ALTERNATIVES.sub(lambda m: m.group(1) + m.group(2), text)
    return _PLACEHOLDER.sub(lambda m: m.group(0).replace(m.group(1), "1", 1)
                            if m.group(1) not in _WORDS else m.group(0), out)
