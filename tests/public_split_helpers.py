"""What the tests of the estimator's public held-out splits share: the page, publisher and every
URL of a split's sources (a split must use pages and publishers no earlier split used)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

REPO = Path(__file__).resolve().parent.parent
_URL = re.compile(r"https?://[^\s'\"\)\]<>,`]+")


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


def publishers_cited_under_calibration_and_bench(split: int) -> set[str]:
    """Every GitHub owner / host cited by a URL in any file under calibration/public and bench, except
    held-out split ``split``'s own builder and files (``heldoutN.json``, ``build_heldoutN.py``,
    ``heldoutN_*``)."""
    own = f"heldout{split}"
    found = set()
    for root in (REPO / "calibration" / "public", REPO / "bench"):
        for path in root.rglob("*"):
            if not path.is_file() or path.name in (f"{own}.json", f"build_{own}.py") \
                    or path.name.startswith(f"{own}_") or path.suffix not in (".py", ".json", ".md", ".txt"):
                continue
            for url in _URL.findall(path.read_text(encoding="utf-8", errors="replace")):
                parts = url.split("/")
                if len(parts) > 3 and (parts[2].endswith("github.com") or "." in parts[2]):
                    found.add(publisher(url))
    return found
