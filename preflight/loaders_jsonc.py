"""JSON with comments: the ``//`` and ``/* */`` comments some projects write in their JSON configs and
strip themselves before ``json.loads`` (Janspiry/Image-Super-Resolution-via-Iterative-Refinement
``core/logger.py:26-32``: every line cut at ``//`` then ``json.loads``, for ``config/sr_sr3_16_128.json``
with ``"phase": "train", // train or val``; the same helper in cszn/KAIR ``utils/utils_option.py``).
Read by :func:`preflight.loaders._load_json` only when the text is not valid JSON as it is."""

from __future__ import annotations

from typing import Optional


def without_comments(text: str) -> Optional[str]:
    """``text`` with its comments blanked (outside strings; newlines kept, so every line stays
    where it was), or None when it has none."""
    out: list[str] = []
    i, n = 0, len(text)
    found = False
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"' or c == "\n":
                in_string = False
            i += 1
            continue
        if c == '"':
            in_string = True
            out.append(c)
            i += 1
            continue
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
            found = True
            continue
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            if end < 0:
                return None
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end + 2]))
            i = end + 2
            found = True
            continue
        out.append(c)
        i += 1
    return "".join(out) if found else None
