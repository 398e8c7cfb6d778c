"""A repository whose top folder is itself a package, imported by the project's own name.

zhangruochi/pseudoESM @ 859e25ad: the repository root holds ``__init__.py``; ``train.py:41`` puts the
folder above it on ``sys.path`` and imports ``from pseudoESM.trainer import Trainer`` (``:52-67``), which
resolves to ``<root>/trainer.py`` when the clone's folder is named ``pseudoESM``. A clone under another
folder name (a ``-main`` zip download, a pinned checkout) loses the link, so the project's own name is
taken from the root README's first heading (``# pseudoESM``). An import ``<name>.x.y`` that resolves in
no import base is then looked up as ``x/y`` under the package root. Other public repositories whose root
is a package imported by its own name are cited in docs/corpus.md. Nothing is imported or run.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Optional

from preflight.sources import read_text_limited

_HEADING = re.compile(r"^#\s+([A-Za-z_][A-Za-z0-9_]*)\s*$", re.M)


@lru_cache(maxsize=256)
def _own_name(folder: str) -> Optional[tuple[str, Path]]:
    """(name, package root) for ``folder``'s top package when its README's first heading is one name."""
    top = Path(folder)
    if not (top / "__init__.py").is_file():
        return None
    while (top.parent / "__init__.py").is_file() and top.parent != top:
        top = top.parent
    for readme in ("README.md", "readme.md", "Readme.md"):
        path = top / readme
        if not path.is_file():
            continue
        try:
            text = read_text_limited(path, 200_000, errors="replace")
        except (OSError, ValueError):
            return None
        first = re.search(r"^#\s+.*$", text, re.M)
        match = _HEADING.match(first.group(0)) if first else None
        if match is None or match.group(1) == top.name:
            return None
        return match.group(1), top
    return None


def own_name_module(module: str, here: Path) -> list[Path]:
    """The files ``module`` names under the package root when its first part is the project's own name."""
    head, _, rest = module.partition(".")
    if not rest:
        return []
    found = _own_name(str(here))
    if found is None or found[0] != head:
        return []
    rel = rest.replace(".", "/")
    root = found[1]
    return [c for c in (root / f"{rel}.py", root / rel / "__init__.py") if c.is_file()]
