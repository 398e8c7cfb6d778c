"""The built-in architecture catalog (installed as ``preflight.architectures``).

One JSON file per model family in this directory; each entry stores a model's Hugging Face
``config.json`` numbers (HF key names) plus its name, aliases (Hub ids included), published
parameter total and sources (see ``docs/catalogs.md``).  Every entry is read through
:func:`preflight.estimate.arch.from_hf_config`, the same reader the Hub path uses.

Nothing is read at import time: the JSON files are parsed on the first lookup.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Tuple

if TYPE_CHECKING:  # pragma: no cover
    from preflight.estimate.arch import Architecture

__all__ = ["CatalogError", "diffusion_entries", "entries", "lookup", "names"]

_DIR = Path(__file__).resolve().parent
_LOCK = threading.Lock()
_ENTRIES: Optional[List[Dict[str, Any]]] = None
_INDEX: Optional[Dict[str, int]] = None
_CACHE: Dict[int, Architecture] = {}

# Suffixes of fine-tuned variants that keep the base model's shapes: "Qwen2.5-7B-Instruct"
# is looked up as "Qwen2.5-7B" when it is not an alias itself.
_VARIANT_SUFFIXES = ("-instruct", "-chat-hf", "-chat", "-hf", "-it", "-base", "-pt")


class CatalogError(RuntimeError):
    """A catalog file that is not what the loader expects (a packaging or editing mistake)."""


def _key(text: str) -> str:
    return " ".join(text.strip().lower().split())


def _load() -> Tuple[List[Dict[str, Any]], Dict[str, int]]:
    global _ENTRIES, _INDEX
    from preflight.config_cache import unrecorded

    # read once per process and keyed by the build: no dependency of a cached config result
    with _LOCK, unrecorded():
        if _ENTRIES is not None and _INDEX is not None:
            return _ENTRIES, _INDEX
        loaded: List[Dict[str, Any]] = []
        index: Dict[str, int] = {}
        for path in sorted(_DIR.glob("*.json")):
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
                items = doc["entries"]
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise CatalogError(f"{path.name}: not a catalog file ({exc})") from exc
            for entry in items:
                entry = dict(entry, file=path.name)
                position = len(loaded)
                loaded.append(entry)
                for label in [entry["name"], *entry.get("aliases", [])]:
                    key = _key(label)
                    if key in index and index[key] != position:
                        other = loaded[index[key]]["name"]
                        raise CatalogError(
                            f"{path.name}: {label!r} names both {other!r} and {entry['name']!r}")
                    index[key] = position
        # A Hub id's repository part alone ("Meta-Llama-3-8B") also finds the entry, unless
        # two entries would share it.
        short: Dict[str, set] = {}
        for key, position in index.items():
            if "/" in key:
                short.setdefault(key.rsplit("/", 1)[1], set()).add(position)
        for key, positions in short.items():
            if key not in index and len(positions) == 1:
                index[key] = next(iter(positions))
        _ENTRIES, _INDEX = loaded, index
        return loaded, index


def entries() -> List[Mapping[str, Any]]:
    """The raw catalog entries (name, aliases, published_params, sources, config, file) of
    the transformers models; diffusion pipelines are in :func:`diffusion_entries`."""
    return [e for e in _load()[0] if "pipeline" not in e]


def diffusion_entries() -> List[Mapping[str, Any]]:
    """The diffusion pipeline entries (``diffusion.json``: name, aliases, pipeline, sources)."""
    return [e for e in _load()[0] if "pipeline" in e]


def names() -> List[str]:
    """Every catalog name, sorted case-insensitively."""
    return sorted((e["name"] for e in _load()[0]), key=str.lower)


def _find(name: str) -> Optional[int]:
    _, index = _load()
    key = _key(name)
    if key in index:
        return index[key]
    for candidate in (key, key.rsplit("/", 1)[-1]):
        for suffix in _VARIANT_SUFFIXES:
            if candidate.endswith(suffix) and candidate[: -len(suffix)] in index:
                return index[candidate[: -len(suffix)]]
    return None


def lookup(name_or_hub_id: str) -> Optional[Architecture]:
    """The catalog architecture for a name, alias or Hub id (case-insensitive), else None.

    ``params_total`` is the published total when the entry has one (``params_source``
    "catalog"), else the formula count; ``published_params`` is always the entry's figure.
    """
    if not isinstance(name_or_hub_id, str) or not name_or_hub_id.strip():
        return None
    position = _find(name_or_hub_id)
    if position is None:
        return None
    cached = _CACHE.get(position)
    if cached is not None:
        return cached
    from dataclasses import replace

    from preflight.estimate.arch import from_hf_config

    entry = _load()[0][position]
    if "pipeline" in entry:
        from preflight.estimate.diffusion import from_pipeline

        arch = from_pipeline(entry["pipeline"], name=entry["name"], source=entry.get("source", ""))
        published = entry.get("published_params")
        if published:
            arch = replace(arch, published_params=int(published))
        _CACHE[position] = arch
        return arch
    arch = from_hf_config(entry["config"], name=entry["name"], source=entry.get("source", ""))
    published = entry.get("published_params")
    if published:
        # Dense models: the published figure is the exact total.  MoE: keep the formula's
        # active count (published active figures are rounded), scale nothing.
        active = published if not arch.is_moe else arch.params_active
        arch = replace(arch, params_total=int(published), params_active=int(active),
                       params_source="catalog", published_params=int(published))
    _CACHE[position] = arch
    return arch
