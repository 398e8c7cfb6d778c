"""Rows tokenized and padded by a preparation script, read back with ``load_from_disk``: their padding.

The FLAN-T5 DeepSpeed recipe copied by many projects (tohtana/ds_repro_2746 @ 3e7f5ac ``prepare_dataset.py:63-90``:
``def preprocess_function(sample, padding="max_length")`` tokenizes inputs and labels with ``padding=padding``,
then ``tokenized_dataset["train"].save_to_disk(...)``; ``run_seq2seq_deepspeed_peft.py:90,116``
``load_from_disk(...)`` and ``DataCollatorForSeq2Seq(tokenizer, ...)``): every saved row is already padded to
``max_length``, so the collator, which pads to the batch's longest, has nothing to add; the rows are
``max_length``. Without this the collator's default reads as "dynamic", which is wrong for such a job.

Said only when the training script reads its data with ``load_from_disk`` and tokenizes nothing with a
``padding=`` itself, and exactly one other Python file of the project (its folder and the folders under it, at
most 300 files) calls ``save_to_disk``, and that file's only ``padding=`` literals are ``"max_length"``
(``padding=True``/``"longest"``/``False``/``"do_not_pad"`` anywhere in it, or none at all, state nothing).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Optional

_MAX = re.compile(r"""\bpadding\s*=\s*['"]max_length['"]""")
_OTHER = re.compile(r"""\bpadding\s*=\s*(?:True|False|None|['"](?:longest|do_not_pad)['"])""")
_MAX_FILES = 300


def saved_padding(project: Any, script: Any) -> Optional[tuple[str, int]]:
    """(shown path, line) of the preparation file that pads the saved rows to max_length, or None."""
    text = getattr(script.source, "text", "") or ""
    if "load_from_disk(" not in text or re.search(r"\bpadding\s*=", text):
        return None
    root = getattr(project, "root", None)
    here = getattr(script.source, "path", None)
    if root is None or here is None:
        return None
    from preflight.sources import read_text_limited

    base = Path(str(root)).resolve()
    mine = Path(str(here)).resolve()
    savers: list[tuple[Path, str]] = []
    count = 0
    for folder, dirs, names in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__"))
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            count += 1
            if count > _MAX_FILES:
                return None
            path = Path(folder) / name
            if path.resolve() == mine:
                continue
            try:
                body = read_text_limited(path, 1_000_000, errors="replace")
            except (OSError, ValueError):
                return None
            if "save_to_disk(" in body:
                savers.append((path, body))
    if len(savers) != 1:
        return None
    path, body = savers[0]
    code = "\n".join(line.split("#", 1)[0] for line in body.splitlines())
    found = _MAX.search(code)
    if found is None or _OTHER.search(code):
        return None
    line = code.count("\n", 0, found.start()) + 1
    return str(path.relative_to(base)), line


__all__ = ["saved_padding"]
