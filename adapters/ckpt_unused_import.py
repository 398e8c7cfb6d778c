"""An activation-checkpointing function imported and never used names no checkpointing: ``from
torch.utils.checkpoint import checkpoint_sequential`` at the top of NVlabs/FourCastNet
``networks/afnonet.py:17`` (at the benchmark's commit), whose model never calls it. Read by
:func:`preflight.adapters.pytorch_local.names_checkpointing` before it looks for the words: the import
line is blanked when none of the names it binds appears anywhere else in the text (a use under another
spelling, a string or a comment naming it, keeps the line, so nothing is claimed). A star import, an
import in parentheses over several lines, or any name still seen elsewhere: the text unchanged."""

from __future__ import annotations

import re

_IMPORT = re.compile(r"^[ \t]*from[ \t]+torch\.utils\.checkpoint[ \t]+import[ \t]+([\w \t,]+?)[ \t]*(?:#.*)?$",
                     re.M)


def blank_unused_imports(text: str) -> str:
    """``text`` with each such import of names it never uses blanked (the line kept, empty)."""
    if "torch.utils.checkpoint" not in text:
        return text
    out = text
    for match in _IMPORT.finditer(text):
        bound = []
        for part in match.group(1).split(","):
            words = part.split()
            if not words:
                continue
            if len(words) == 3 and words[1] == "as":
                bound.append(words[2])
            elif len(words) == 1:
                bound.append(words[0])
            else:
                bound = []
                break
        if not bound or "*" in bound:
            continue
        rest = text[:match.start()] + text[match.end():]
        if any(re.search(rf"\b{re.escape(name)}\b", rest) for name in bound):
            continue
        out = out.replace(match.group(0), "", 1)
    return out
