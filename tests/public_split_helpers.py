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



# From held-out-36 on (issue 17, the lead engineer's decision): the publisher of a measurement is who measured and
# published it (a GitHub issue's or pull request's author, or the commenter who posted the figures; a repository's
# owner for a README or report; a blog's host), and a split must be independent of the ESTIMATOR's sources only:
# every file under calibration/public and the estimator benches bench/public_*.py. bench/bugs and bench/realworld
# cite public threads for the rule and jobs benchmarks (bug reports, training scripts), not memory measurements, so
# an owner they cite (huggingface/* issues, say) does not make a memory measurement in another thread dependent.


def estimator_source_files(split: int) -> list[Path]:
    """calibration/public's files and bench/public_*.py, except held-out split ``split``'s own builder and files."""
    own = f"heldout{split}"
    files = sorted(p for p in (REPO / "calibration" / "public").rglob("*") if p.is_file())
    files += sorted((REPO / "bench").glob("public_*.py"))
    return [p for p in files if p.suffix in (".py", ".json", ".md", ".txt")
            and p.name not in (f"{own}.json", f"build_{own}.py") and not p.name.startswith(f"{own}_")]


def estimator_sources_cited(split: int) -> tuple[set[str], set[str], str]:
    """What the estimator's sources cite, except split ``split``'s own files: the pages (every URL without its
    fragment), the publishers (the GitHub owner or host of each URL) and the whole text, lower-cased, in which a
    measuring author named by an earlier split (its notes, its ``measured_by``) can be looked up with
    ``author_cited``."""
    pages, publishers, texts = set(), set(), []
    for path in estimator_source_files(split):
        text = path.read_text(encoding="utf-8", errors="replace")
        texts.append(text.lower())
        for url in _URL.findall(text):
            parts = url.split("/")
            if len(parts) > 3 and (parts[2].endswith("github.com") or "." in parts[2]):
                pages.add(page(url).rstrip("."))
                publishers.add(publisher(url))
    return pages, publishers, "\n".join(texts)


def author_cited(login: str, publishers: set[str], text: str) -> bool:
    """Whether a measuring author's login is a publisher the estimator's sources cite, or a word in their text."""
    login = login.lower()
    return login in publishers or re.search(rf"(?<![\w-]){re.escape(login)}(?![\w-])", text) is not None


def measurement_publisher(url: str, author: str) -> str:
    """Who measured and published a figure: for a GitHub issue, pull request or discussion, ``author`` (the login of
    whoever posted the figures, read from the thread); for a file in a repository, its owner; else the host."""
    parts = url.split(" ")[0].split("/")
    if parts[2].endswith("github.com") and len(parts) > 5 and parts[5] in ("issues", "pull", "discussions"):
        return author.lower()
    return publisher(url)
