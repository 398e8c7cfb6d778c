"""A package the project installs from its own copy (read by :mod:`preflight.adapters.transformers_version`
when no requirements file, lock file or README ``pip install X==V`` line names it).

voidism/DiffCSE @ the benchmark's commit: ``transformers-4.2.1/`` is a customised transformers source tree
(``setup.py``, ``src/transformers/__init__.py:25`` ``__version__ = "4.2.1"``), and ``README.md:42-47`` says
``cd transformers-4.2.1`` then ``pip install .``; the job runs that release, whose Trainer builds
``transformers.optimization.AdamW`` and a DataLoader without ``pin_memory``. Read when a README of the
folder installs a child folder (``cd D`` then ``pip install .``, or ``pip install [-e] [./]D``) that holds
``setup.py``/``pyproject.toml`` and the package's ``__init__.py`` (``D/src/<package>/`` or ``D/<package>/``)
with a literal ``__version__``. A copy the README does not install is not taken (it may be a reference).
Nothing is imported or run.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Optional

_VERSION = re.compile(r"""^__version__\s*=\s*["']([0-9][0-9A-Za-z.+-]*)["']""", re.MULTILINE)
_MAX_DIRS = 200


def _installs(readme: str, name: str) -> Optional[int]:
    """The line of ``readme`` that installs the folder ``name`` (1-based), or None."""
    lines = readme.splitlines()
    folder = re.escape(name)
    direct = re.compile(rf"pip3?\s+install\s+(?:-e\s+|--editable\s+)?(?:\./)?{folder}/?(?:\s|$|`)")
    cd = re.compile(rf"(?:^|[\s;&`])cd\s+(?:\./)?{folder}/?(?:\s|$|;|&|`)")
    here = re.compile(r"pip3?\s+install\s+(?:-e\s+|--editable\s+)?\.(?:\s|$|`)")
    for k, line in enumerate(lines):
        if direct.search(line):
            return k + 1
        if cd.search(line):
            for j in range(k, min(k + 4, len(lines))):
                if here.search(lines[j]):
                    return j + 1
    return None


def vendored_version(package: str, folder: Path, read: Callable[[Path], Optional[str]],
                     display: Callable[[Path], str]) -> Optional[tuple[str, str]]:
    """(version, where) of ``package`` installed from a copy in ``folder`` by its README, or None."""
    readmes = sorted(folder.glob("README*.md"))
    if not readmes:
        return None
    try:
        children = [d for d in sorted(folder.iterdir())[:_MAX_DIRS] if d.is_dir() and not d.name.startswith(".")]
    except OSError:
        return None
    for child in children:
        if not ((child / "setup.py").is_file() or (child / "pyproject.toml").is_file()):
            continue
        init = next((p for p in (child / "src" / package / "__init__.py", child / package / "__init__.py")
                     if p.is_file()), None)
        if init is None:
            continue
        text = read(init)
        match = _VERSION.search(text or "")
        if match is None:
            continue
        for readme in readmes:
            body = read(readme)
            line = _installs(body or "", child.name)
            if line is not None:
                number = (text or "")[:match.start()].count("\n") + 1
                return match.group(1), (f"{display(init)}:{number}, the project's own copy, installed by "
                                        f"{display(readme)}:{line}")
    return None
