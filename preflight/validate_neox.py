"""GPT-NeoX's ``NeoXArgs`` fields, read from source with ``ast``: for the packaged schema and for
a config that lives inside a GPT-NeoX checkout.

GPT-NeoX is not a pip package: what reads a NeoX config is the ``NeoXArgs`` of the tree the
config is run from (``megatron/neox_arguments/neox_args.py`` and ``deepspeed_args.py``; every
``NeoXArgs*`` dataclass there is a base of ``NeoXArgs``). ``NeoXArgs.from_ymls`` replaces ``-``
by ``_`` in each key and ends in ``cls(**config)``, so a key those dataclasses do not declare is a
``TypeError`` at start-up, and one they declare is accepted whatever upstream has since renamed.

The packaged schema (``preflight/schemas/config/gpt_neox.json``) is upstream's fields at one
commit (``tools/gen_neox_fields.py``). A config inside a checkout of GPT-NeoX or one of its forks
(Stability AI's fork declares ``gas``, which upstream dropped after v2.0) is validated against
that checkout's own fields instead: :func:`checkout_schema`. Nothing is imported or run; both
files are read with a size limit, and a checkout whose files do not parse falls back to the
packaged schema.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.config_cache import recorded_memo
from preflight.sources import read_text_limited

__all__ = ["FILES", "checkout_root", "checkout_schema", "neox_fields"]

FILES = ("megatron/neox_arguments/neox_args.py", "megatron/neox_arguments/deepspeed_args.py")
MAX_BYTES = 1 << 20
SIMPLE = {"int": "integer", "float": "number", "bool": "boolean", "str": "string", "dict": "object",
          "list": "array"}


def _type_of(node: ast.expr) -> Optional[dict[str, Any]]:
    """The JSON schema of an annotation NeoX's ``validate_types`` enforces, or None (unchecked)."""
    if isinstance(node, ast.Name) and node.id in SIMPLE:
        kind = SIMPLE[node.id]
        return {"type": ["number", "integer"] if kind == "number" else kind}
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        name = node.value.id
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if name == "Literal":
            values = [a.value for a in args if isinstance(a, ast.Constant)]
            return {"enum": values, "x-case-insensitive": True} if len(values) == len(args) else None
        if name in ("Union", "Optional"):
            subs = [_type_of(a) for a in args if not (isinstance(a, ast.Constant) and a.value is None)]
            if any(s is None for s in subs):
                return None
            return {"anyOf": subs}
    return None


def neox_fields(sources: dict[str, str], skip_broken: bool = False) -> dict[str, dict[str, Any]]:
    """The fields of the ``NeoXArgs*`` dataclasses in ``sources`` (path -> text): name -> JSON
    schema of its annotation, its literal default, and ``x-class``. A file that does not parse
    raises ``SyntaxError``, or is left out with ``skip_broken``."""
    out: dict[str, dict[str, Any]] = {}
    for path, text in sources.items():
        try:
            tree = ast.parse(text, filename=path)
        except SyntaxError:
            if not skip_broken:
                raise
            continue
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef) or not cls.name.startswith("NeoXArgs"):
                continue
            for stmt in cls.body:
                if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                    continue
                schema: dict[str, Any] = dict(_type_of(stmt.annotation) or {})
                if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, (int, float, str, bool)):
                    schema["default"] = stmt.value.value
                schema["x-class"] = cls.name
                out[stmt.target.id] = schema
    return out


def with_dashes(props: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """NeoX reads ``a-b`` as ``a_b``: both spellings are the same field."""
    out = dict(props)
    for name in list(props):
        if "_" in name:
            out[name.replace("_", "-")] = {**props[name], "x-same-as": name}
    return dict(sorted(out.items()))


def checkout_root(config_path: Path) -> Optional[Path]:
    """The GPT-NeoX checkout a config lives in (its project root holds ``megatron/neox_arguments``)."""
    from preflight.validate_project import project_root

    root = project_root(config_path)
    if root is None or not (root / "megatron" / "neox_arguments").is_dir():
        return None
    return root


def checkout_schema(config_path: Path) -> Optional[dict[str, Any]]:
    """The schema of the NeoXArgs of the checkout the config lives in, or None (not in a checkout,
    or its argument files are missing, too large or do not parse)."""
    root = checkout_root(config_path)
    return _schema_under(str(root)) if root is not None else None


@recorded_memo
def _schema_under(root: str) -> Optional[dict[str, Any]]:
    sources: dict[str, str] = {}
    for rel in FILES:
        try:
            sources[rel] = read_text_limited(Path(root) / rel, MAX_BYTES, errors="replace")
        except OSError:
            return None
    try:
        props = neox_fields(sources)
    except (SyntaxError, ValueError):
        return None
    if not props:
        return None
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "GPT-NeoX NeoXArgs of this checkout",
        "type": "object",
        "properties": with_dashes(props),
        "additionalProperties": False,
        "x-unknown-keys": "error",
        "x-removed": {},
        "x-preflight": {"library": "gpt-neox", "version": "at this checkout's megatron/neox_arguments",
                        "checkout": root},
    }
