"""What the tests of the estimator's public held-out splits share: the page, publisher and every
URL of a split's sources (a split must use pages and publishers no earlier split used)."""

from __future__ import annotations

from typing import Any, Iterator


def page(url: str) -> str:
    return url.split("#")[0].split(" ")[0]


def publisher(url: str) -> str:
    """owner (github.com and gist.github.com), else the host without 'www.' / 'docs.'."""
    parts = url.split(" ")[0].split("/")
    if parts[2].endswith("github.com"):
        return parts[3].lower()
    host = parts[2].lower()
    for prefix in ("www.", "docs."):
        host = host[len(prefix):] if host.startswith(prefix) else host
    return host


def all_urls(doc: dict[str, Any]) -> Iterator[str]:
    for source in doc["sources"].values():
        yield source["url"]
        yield from (u.split(" ")[0] for u in source.get("also", []))
