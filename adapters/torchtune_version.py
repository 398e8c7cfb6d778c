"""Which torchtune release a ``tune run`` job states (helper of the torchtune recipe adapter).

torchtune's recipes changed what a training step holds in 0.3.0 (the loop's fp32 logits,
the compile scope: :mod:`preflight.estimate.torchtune_loop`), so the estimator needs the
release the job runs. It is read only from what the job states, never from the installed
environment:

- ``pip install ... torchtune==X`` (``pip3``, ``python -m pip``, ``uv pip``) on a line of the
  launch script before the ``tune run`` line: the last such pin wins (it is what is installed
  when the job starts);
- else an exact pin (``torchtune==X``) in the requirement files, ``pyproject.toml``,
  ``setup.py``, ``environment.yml`` or lock files next to the job's config, the launch
  script or the project root (:func:`preflight.adapters.transformers_version.find_version`).

A lower bound (``torchtune>=0.2``) says nothing about the installed release: a note, no fact.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

from preflight.plan import FIELDS, Source

FIELD = "framework.torchtune_version"
_MAX_BYTES = 1_000_000
_PIP = re.compile(r"(?:^|[\s;&|(])(?:uv\s+)?pip3?\s+install\b|python3?\s+-m\s+pip\s+install\b")
_PIN = re.compile(r"""(?<![\w.-])["']?torchtune(?:\[[^\]]*\])?==v?(\d+(?:\.\d+)*)""", re.IGNORECASE)


def _launch_pin(project: Any) -> Optional[tuple[str, str, int]]:
    """(version, display path, line) of the last ``pip install torchtune==X`` before the launch line."""
    at = getattr(project, "launch_at", None)
    if at is None:
        return None
    shown, launch_line = at
    from preflight.sources import read_text_limited

    try:
        text = read_text_limited(Path(str(project.root)) / shown, _MAX_BYTES, errors="replace")
    except (OSError, ValueError):
        return None
    found: Optional[tuple[str, str, int]] = None
    for number, line in enumerate(text.splitlines(), 1):
        if number >= launch_line:
            break
        code = line.split("#", 1)[0]
        if _PIP.search(code):
            pin = _PIN.search(code)
            if pin is not None:
                found = (pin.group(1), str(shown), number)
    return found


def _starts(project: Any, cfg: Any) -> list[Path]:
    root = Path(str(project.root))
    out: list[Path] = []
    path = Path(str(getattr(cfg, "path", "") or ""))
    if str(path):
        out.append((path if path.is_absolute() else root / path).parent)
    at = getattr(project, "launch_at", None)
    if at is not None:
        out.append((root / str(at[0])).parent)
    out.append(root)
    return out


def before_fully_shard(version: Optional[str]) -> bool:
    """A release whose ``*_distributed`` recipes wrap the model in FSDP1: ``model = FSDP(`` in
    ``recipes/full_finetune_distributed.py`` (v0.1.1 :271, v0.2.0 and v0.2.1 :319) and
    ``lora_finetune_distributed.py`` (v0.2.1 :415); v0.3.0 calls ``training.shard_model(``
    (``fully_shard``, FSDP2) in both."""
    m = re.match(r"\s*v?(\d+)\.(\d+)", version or "")
    return m is not None and (int(m.group(1)), int(m.group(2))) < (0, 3)


def torchtune_version(project: Any, plan: Any, cfg: Any, adapter: Any) -> Optional[tuple[str, Source]]:
    """Adds ``framework.torchtune_version`` when the job states an exact torchtune release;
    returns (the version, the fact's source), None when none is stated."""
    if FIELD not in FIELDS:
        return None
    pin = _launch_pin(project)
    if pin is not None:
        version, shown, number = pin
        src = Source("config", shown, number, None, f"pip install torchtune=={version} in the launch script")
        adapter.add_checked(plan, FIELD, version, src, "high")
        return version, src
    from preflight.adapters.transformers_version import find_version

    root = Path(str(project.root))
    for start in _starts(project, cfg):
        try:
            found = find_version("torchtune", start, root)
        except (OSError, ValueError):
            found = None
        if found is None:
            continue
        if found.how != "pinned":
            plan.note(f"recipes_tools: {found.where}: torchtune {found.text} is a {found.how}, not the "
                      "installed release; torchtune version unknown")
            return None
        path, _, line = found.where.rpartition(":")
        src = Source("config", path or found.where, int(line) if line.isdigit() and int(line) > 0 else None,
                     None, f"torchtune {found.text} (pinned)")
        adapter.add_checked(plan, FIELD, found.text, src, "high")
        return found.text, src
    return None


__all__ = ["before_fully_shard", "torchtune_version"]
