"""The schema files of :mod:`preflight.validate` (``preflight/schemas/config/``, generated from the real
libraries by ``tools/gen_schemas.py``): a kind's schema, its top-level keys, where it came from, and the
data files beside them (``file:lightning_removed``). Read once each; nothing is imported from the
libraries."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from preflight.validate_kinds import KINDS

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas" / "config"


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The schema of a kind, or with ``file:NAME`` another data file of the package's schema
    folder (``file:lightning_removed``)."""
    if kind.startswith("file:"):
        stem = kind[len("file:"):]
    else:
        stem = KINDS[kind].schema
        if not stem:
            return {}
    return json.loads((SCHEMA_DIR / f"{stem}.json").read_text(encoding="utf-8"))


@cache
def _lightning_removed() -> dict[str, dict[str, Any]]:
    """Trainer arguments of older Lightning releases (tools/gen_lightning_removed.py)."""
    return load_schema("file:lightning_removed").get("removed", {})


@cache
def schema_fields(kind: str) -> frozenset[str]:
    """The top-level keys a kind's schema knows."""
    props = load_schema(kind).get("properties", {})
    return frozenset(props) if isinstance(props, dict) else frozenset()


def schema_info(kind: str) -> dict[str, str]:
    if not KINDS[kind].schema:
        return {"library": KINDS[kind].owner, "version": "", "file": ""}
    meta = load_schema(kind).get("x-preflight", {})
    return {"library": meta.get("library", ""), "version": meta.get("version", ""),
            "file": f"preflight/schemas/config/{KINDS[kind].schema}.json"}
