"""Hydra values on plain data (helper of the Hydra adapter): the literal syntax of a
command-line override's value, and interpolation.

Interpolations are resolved by :func:`resolve` on plain data, never by OmegaConf:
``${a.b}`` and ``${.b}`` are followed, ``${oc.select:key,default}`` too; ``${oc.env:...}``,
``${hydra:...}``, ``${now:...}`` and other resolvers are *unknown* (the real environment
is never read). ``???`` stays ``???`` (mandatory, unset).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

MISSING = "???"
MAX_DEPTH = 16
# Interpolation is bounded like YAML aliases (loaders.MAX_YAML_NODES): a value that takes more
# lookups than this, or grows longer than this, is not followed (an interpolation bomb: ten
# copies of the previous key per level is 10**n characters after n levels)
MAX_INTERPOLATION_STEPS = 10_000
MAX_INTERPOLATED_CHARS = 100_000
_INTERP = re.compile(r"\$\{([^${}]*)\}")


class Unknown:
    """A value that cannot be known statically (an environment variable, a Hydra runtime value)."""

    def __init__(self, why: str) -> None:
        self.why = why

    def __repr__(self) -> str:
        return f"Unknown({self.why!r})"


def parse_value(text: str) -> Any:
    """A Hydra override value: int, float, bool, null, quoted string, [list], {dict}, else string."""
    raw = text.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "null":
        return None
    try:
        return int(raw.replace("_", "")) if re.fullmatch(r"[-+]?\d[\d_]*", raw) else float(raw)
    except ValueError:
        pass
    if raw.startswith(("[", "{")) and "${" not in raw:
        import yaml

        try:
            return yaml.safe_load(_spaced_keys(raw))
        except yaml.YAMLError:
            return raw
    return raw


# a key of a Hydra dict value right after `{` or `,`, followed by `:` and no space (`{lr:0.1}`)
_TIGHT_KEY = re.compile(r"([{,]\s*[\w.\-/]+):(?=\S)")


def _spaced_keys(raw: str) -> str:
    """Hydra's override grammar reads ``{_target_:torch.optim.SGD,lr:0.1}`` as a mapping (a dict
    key needs no space after its colon); YAML flow syntax would read ``_target_:torch.optim.SGD`` as
    one plain scalar key. Put the space YAML needs after each such key (not inside quotes)."""
    if "{" not in raw or "'" in raw or '"' in raw:
        return raw
    return _TIGHT_KEY.sub(r"\1: ", raw)


# --------------------------------------------------------------------------- interpolation


class _TooMuch(Exception):
    pass


_BOMB = (f"interpolation expands beyond {MAX_INTERPOLATION_STEPS:,} lookups or "
         f"{MAX_INTERPOLATED_CHARS:,} characters (an interpolation bomb?); not followed")


def resolve(data: dict[str, Any], value: Any, here: Sequence[str] = (), depth: int = 0) -> Any:
    """``value`` with its interpolations followed in ``data`` (an :class:`Unknown` when a
    part cannot be known statically, or when following it would take more than
    :data:`MAX_INTERPOLATION_STEPS` lookups or give more than :data:`MAX_INTERPOLATED_CHARS`
    characters). ``here`` is the key path of the node holding it."""
    try:
        return _resolve(data, value, here, depth, [MAX_INTERPOLATION_STEPS])
    except _TooMuch:
        return Unknown(_BOMB)


def _resolve(data: dict[str, Any], value: Any, here: Sequence[str], depth: int, budget: list[int]) -> Any:
    if not isinstance(value, str) or "${" not in value:
        return value
    if depth > MAX_DEPTH:
        return Unknown("interpolation nested too deeply")
    whole = _INTERP.fullmatch(value.strip())
    if whole:
        return _resolve_one(data, whole.group(1), here, depth, budget)
    pieces: list[str] = []
    size = 0
    end = 0
    matches = list(_INTERP.finditer(value))
    for match in matches:
        part = _resolve_one(data, match.group(1), here, depth, budget)
        if isinstance(part, Unknown):
            return part
        text = str(part)
        size += match.start() - end + len(text)
        if size > MAX_INTERPOLATED_CHARS:
            raise _TooMuch
        pieces.append(value[end:match.start()])
        pieces.append(text)
        end = match.end()
    pieces.append(value[end:])
    joined = "".join(pieces)
    if matches and value.count("${") > len(matches):
        # nested: ``${div_up:${a}, ${eval:${b} * 2}}`` (HazyResearch/based configs/experiment/pile/base.yaml:24):
        # the inner ones are done, the outer one is read on what they gave
        return _resolve(data, joined, here, depth + 1, budget)
    return joined


def _resolve_one(data: dict[str, Any], expr: str, here: Sequence[str], depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooMuch
    expr = expr.strip()
    if ":" in expr:
        name, _, args = expr.partition(":")
        if name == "oc.select":
            key, _, default = args.partition(",")
            found = lookup(data, key.strip(), here)
            if found is _ABSENT:
                return parse_value(default) if default else None
            return _resolve(data, found, _parent(key.strip(), here), depth + 1, budget)
        if name == "oc.env":
            return Unknown(f"${{{expr}}} reads an environment variable (not read by preflight)")
        from preflight.adapters.hydra_resolvers import evaluate

        known, value = evaluate(name, args)
        if known:
            return value if value is not None else Unknown(
                f"${{{expr}}}: the project's resolver {name!r} over these arguments is not plain arithmetic")
        return Unknown(f"${{{expr}}} uses the resolver {name!r}, known only when the job runs")
    found = lookup(data, expr, here)
    if found is _ABSENT:
        return Unknown(f"${{{expr}}} points at a key that does not exist")
    if found == MISSING:
        return Unknown(f"${{{expr}}} points at a mandatory value (???) that is not set")
    return _resolve(data, found, _parent(expr, here), depth + 1, budget)


_ABSENT = object()


def _parent(expr: str, here: Sequence[str]) -> list[str]:
    return key_path(expr, here)[:-1]


def key_path(expr: str, here: Sequence[str] = ()) -> list[str]:
    if expr.startswith("."):
        stripped = expr.lstrip(".")
        ups = len(expr) - len(stripped) - 1
        base = list(here)[: max(len(here) - ups, 0)]
        return base + [p for p in stripped.split(".") if p]
    return [p for p in expr.split(".") if p]


def lookup(data: Any, expr: str, here: Sequence[str] = ()) -> Any:
    node = data
    for part in key_path(expr, here):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        else:
            return _ABSENT
    return node
