"""A module imported under the package path of another source tree, which is the importing file's sibling
here (facebookresearch/SlowFast @ 287ec00 ``tools/run_net.py:8-11`` ``from vision.fair.slowfast.tools.train_net
import train``: Meta's internal tree; the repository has no ``vision`` and holds ``tools/train_net.py`` beside
``tools/run_net.py``). Read only when the dotted path has three parts or more, its second-to-last part is the
importing file's folder, its first part is neither a module nor a folder beside it or in ``bases``, and the
last part is a ``.py`` file in that folder. Nothing is imported."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional


def foreign_sibling(module: str, folder: Path, bases: Iterable[Path] = ()) -> Optional[Path]:
    parts = module.split(".")
    if len(parts) < 3 or parts[-2] != folder.name or not all(parts):
        return None
    try:
        if any((b / f"{parts[0]}.py").is_file() or (b / parts[0]).is_dir() for b in [folder, *bases]):
            return None
        sibling = folder / f"{parts[-1]}.py"
        return sibling if sibling.is_file() else None
    except OSError:
        return None
