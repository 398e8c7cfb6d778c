"""A config file named by its use, whatever its suffix.

``deepspeed src/run_s2s.py --deepspeed ds_configs/stage2.config`` (yizhongw/Tk-Instruct
``scripts/train_tk_instruct.sh`` @ 7c0e400:43): the Trainer opens the file with ``json.load``
whatever it is called, so preflight reads it by its content: a file whose text is a JSON object
is JSON. Only a bounded prefix is looked at; nothing is executed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from preflight.sources import read_text_limited

# the options that hand the Trainer / DeepSpeed a JSON config file (any suffix)
DEEPSPEED_FILE_FLAGS = ("--deepspeed", "--deepspeed_config", "--deepspeed-config", "--ds_config")


def sniffed_kind(path: Path) -> Optional[str]:
    """``"json"`` when the file holds a JSON object, else None (unreadable, not JSON)."""
    try:
        text = read_text_limited(path, errors="replace")
    except (OSError, ValueError):
        return None
    body = text.lstrip("\ufeff \t\r\n")
    if not body.startswith("{"):
        return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return "json" if isinstance(data, dict) else None
