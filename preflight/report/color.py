"""Whether to colour the output: ``--color auto|always|never``, ``NO_COLOR``, ``FORCE_COLOR``.

Order: ``--color never`` (or ``--no-color``) and ``--color always`` decide; then a non-empty
``NO_COLOR`` (https://no-color.org) turns colour off and a non-empty ``FORCE_COLOR`` on;
otherwise (``auto``) colour only when writing to a terminal, never to a file.
"""

from __future__ import annotations

import os
from typing import Any, Optional

CHOICES = ("auto", "always", "never")


def use_color(choice: Optional[str], stream: Any, to_file: bool = False) -> bool:
    if choice == "never":
        return False
    if choice == "always":
        return True
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return not to_file and hasattr(stream, "isatty") and stream.isatty()


def bar(parts: list[tuple[str, float]], capacity: float, width: int, color: bool) -> str:
    """A bar ``width`` cells wide for ``capacity``: each part a run of its letter (or a
    coloured block), then ``.`` for the free part; ``!`` marks what exceeds the capacity
    (the bar then spans the total, with ``|`` where the capacity ends)."""
    total = sum(v for _, v in parts)
    scale = max(total, capacity) or 1.0
    cells: list[str] = []
    used = 0.0
    for letter, value in parts:
        start = round(used / scale * width)
        used += value
        end = round(used / scale * width)
        cells.extend(letter * max(end - start, 0))
    free = width - len(cells)
    if total <= capacity:
        cells.extend("." * free)
    else:
        edge = round(capacity / scale * width)
        cells = cells[:edge] + ["|"] + ["!" if c != "." else c for c in cells[edge:width - 1]]
    text = "".join(cells[:width])
    if not color:
        return text
    palette = {"W": "34", "G": "35", "O": "33", "A": "36", "X": "37", "!": "31", "|": "31"}
    return "".join(f"\x1b[{palette[c]}m{c}\x1b[0m" if c in palette else c for c in text)
