"""``python -m pkg.sub.name`` where ``pkg/sub/__init__.py`` installs an import hook that maps
``pkg.sub.*`` onto the files of another folder (Megvii-BaseDetection/YOLOX
``yolox/tools/__init__.py`` @ 6ddff48:10-27: a ``MetaPathFinder`` whose ``find_spec`` returns
``spec_from_file_location(name, _TOOLS_PATH / (last + ".py"))`` with ``_TOOLS_PATH =
Path(__file__).resolve().parent.parent.parent / "tools"``; README.md:126 ``python -m
yolox.tools.train -f exps/default/yolox_s.py -d 8 -b 64 --fp16 -o``). The hook is read, never
run: the package's ``__init__.py`` must define a ``MetaPathFinder`` that loads files by
``spec_from_file_location``, and one folder it names (a quoted word) holding ``name.py`` in the
package's folder or one of its three parents is taken (several candidates: none)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional, Sequence

from preflight.sources import read_text_limited

_WORD = re.compile(r"""["']([A-Za-z_][\w-]*)["']""")
_MAX = 200_000


def hooked_module(module: str, bases: Sequence[Path]) -> Optional[tuple[Path, Path]]:
    """(the file the hook loads, the ``__init__.py`` holding the hook), or None."""
    parts = module.split(".")
    if len(parts) < 2 or not all(p.isidentifier() for p in parts):
        return None
    for base in bases:
        init = base.joinpath(*parts[:-1], "__init__.py")
        try:
            if not init.is_file():
                continue
            text = read_text_limited(init, errors="replace")[:_MAX]
        except OSError:
            continue
        if "MetaPathFinder" not in text or "spec_from_file_location" not in text:
            continue
        found: list[Path] = []
        folders = dict.fromkeys(_WORD.findall(text))
        for up in [init.parent, *list(init.parent.parents)[:3]]:
            for folder in folders:
                cand = up / folder / f"{parts[-1]}.py"
                if cand.is_file() and cand.resolve() not in {f.resolve() for f in found}:
                    found.append(cand)
        if len(found) == 1:
            return found[0], init
    return None
