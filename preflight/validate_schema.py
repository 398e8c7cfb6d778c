"""Walking a config schema and describing values, for :mod:`preflight.validate`: the sub-schema at a
key path, the JSON types a schema accepts, a value and a schema in words, the closest known name.
Pure functions of the schema and the value; nothing is read or run."""

from __future__ import annotations

import difflib
import json
from typing import Any, Iterable, Optional, Sequence

# --------------------------------------------------------------------------- schema walking


def _subschema(schema: dict[str, Any], path: Sequence[Any]) -> Optional[dict[str, Any]]:
    node: Optional[dict[str, Any]] = schema
    for key in path:
        if node is None:
            return None
        node = _object_part(node)
        if node is None:
            return None
        if isinstance(key, int):
            items = node.get("items")
            node = items if isinstance(items, dict) else None
        else:
            props = node.get("properties", {})
            node = props.get(key) if isinstance(props, dict) else None
    return node


def _object_part(schema: dict[str, Any]) -> Optional[dict[str, Any]]:
    if "properties" in schema or "items" in schema:
        return schema
    for sub in schema.get("anyOf", ()):
        if isinstance(sub, dict) and ("properties" in sub or "items" in sub):
            return sub
    return schema


def _accepts(schema: Optional[dict[str, Any]]) -> set[str]:
    """JSON types a schema accepts ("any" when unconstrained)."""
    if schema is None or not schema:
        return {"any"}
    out: set[str] = set()
    if "enum" in schema:
        for v in schema["enum"]:
            out.add(_json_type(v))
    t = schema.get("type")
    if isinstance(t, str):
        out.add(t)
    elif isinstance(t, list):
        out.update(t)
    for sub in schema.get("anyOf", ()):
        out |= _accepts(sub)
    if not out:
        return {"any"}
    if "number" in out:
        out.add("integer")
    return out


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _describe(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        values = [v for v in schema["enum"]]
        shown = ", ".join(json.dumps(v) for v in values[:12])
        return f"one of {shown}" + (", ..." if len(values) > 12 else "")
    types = sorted(_accepts(schema) - {"any"})
    if "number" in types and "integer" in types:
        types.remove("integer")
    names = {"integer": "an integer", "number": "a number", "string": "a string", "boolean": "a boolean",
             "null": "null", "array": "a list", "object": "a mapping"}
    parts = [names.get(t, t) for t in types]
    enums: list[Any] = []
    for sub in schema.get("anyOf", ()):
        enums.extend(sub.get("enum", ()))
    if enums:
        parts = [p for p in parts if p not in ("a string", "an integer")] + \
                ["one of " + ", ".join(json.dumps(v) for v in enums[:12]) + (", ..." if len(enums) > 12 else "")]
    return " or ".join(parts) if parts else "a different value"


def _suggest(word: str, options: Iterable[Any], cutoff: float = 0.6) -> Optional[str]:
    strings = [o for o in options if isinstance(o, str)]
    close = difflib.get_close_matches(word, strings, n=1, cutoff=cutoff)
    if close:
        return close[0]
    lowered = {o.lower(): o for o in strings}
    return lowered.get(word.lower())


def _dotted(path: Sequence[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _close(word: str, hint: str) -> bool:
    return difflib.SequenceMatcher(None, word, hint).ratio() >= 0.8 or word.lower() == hint.lower()


def yaml11_float(text: str) -> str:
    mantissa, _, exponent = text.lower().partition("e")
    if "." not in mantissa:
        mantissa = (mantissa or "1") + ".0"
    return f"{mantissa}e{exponent}"


def _show(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, (dict, list)) else ("a mapping" if isinstance(value, dict)
                                                                         else "a list")
    return text if len(text) <= 60 else text[:57] + "..."


def _matching_branch(schema: dict[str, Any], value: Any) -> Optional[int]:
    """The ``anyOf`` branch a mapping or list should be checked against (to report the
    real problem inside it rather than "not valid under any of the given schemas")."""
    kind = _json_type(value)
    if kind not in ("object", "array"):
        return None
    for i, branch in enumerate(schema.get("anyOf", ())):
        if isinstance(branch, dict) and kind in _accepts(branch) and "any" not in _accepts(branch):
            return i
    return None


_LAX_BOOL = {"true", "false", "yes", "no", "on", "off", "1", "0", "t", "f", "y", "n"}


def _lax_converts(value: Any, schema: dict[str, Any]) -> bool:
    """Whether pydantic's lax mode turns ``value`` into what ``schema`` expects."""
    wanted = _accepts(schema)
    if isinstance(value, str):
        text = value.strip().lower()
        if "boolean" in wanted and text in _LAX_BOOL:
            return True
        try:
            number = float(text)
        except ValueError:
            return False
        return "number" in wanted or ("integer" in wanted and number.is_integer())
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "boolean" in wanted and value in (0, 1):
            return True
        return "integer" in wanted and float(value).is_integer()
    return False
