"""Which reader turns a DeepSpeed config's text into values, decided on evidence.

YAML 1.1 (PyYAML) reads ``5e8`` as the string ``'5e8'``; JSON and OmegaConf read it as a number.
Which one applies decides whether ``validate`` reports a YAML 1.1 trap:

* a whole-file DeepSpeed config whose text is JSON is read with ``json.load`` whatever its name:
  DeepSpeed (``DeepSpeedConfig(path)``), HF Trainer (``--deepspeed path``) and accelerate
  (``deepspeed_config_file:``) all open a config path with ``json.load`` (CogVideo's
  ``finetune/configs/zero2.yaml`` is JSON text);
* a DeepSpeed block nested in a YAML file that is not a TrainingArguments file is handed to
  DeepSpeed by the project's own loader. The project's Python files say which: ``OmegaConf.load`` /
  ``@hydra.main`` only (SwissArmyTransformer's ``--base`` configs in CogVideo) is OmegaConf;
  ``yaml.safe_load`` and friends only, or neither, is PyYAML (as before); both is not known, and
  a trap is a note there, never a warning.

Nothing is imported or run: the project's ``.py`` files are searched as text, bounded like
:mod:`preflight.validate_project`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Optional

from preflight.config_cache import recorded_memo
from preflight.sources import read_text_limited

__all__ = ["MIXED", "deepspeed_reader", "json_text", "mixed_float", "yaml_loaders"]

MIXED = "pyyaml-or-omegaconf"  # the project loads YAML both ways: the reader of this file is not known

_OMEGACONF = re.compile(r"\bOmegaConf\.load\s*\(|@hydra\.main\b|\bhydra\.main\s*\(|@hydra_runner\b")
_PYYAML = re.compile(r"\byaml\.(?:safe_load|load|full_load|unsafe_load|safe_load_all|load_all)\s*\(")


def json_text(text: Optional[str]) -> bool:
    """Whether ``text`` is a JSON object (a ``.yaml`` file written in JSON)."""
    if not text or not text.lstrip().startswith("{"):
        return False
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def yaml_loaders(config_path: Path) -> dict[str, str]:
    """How the Python files of the config's project load YAML: ``{"omegaconf": "path:line",
    "pyyaml": "path:line"}`` with the first place of each found (empty when neither)."""
    from preflight.validate_project import project_root

    root = project_root(config_path)
    return dict(_loaders_under(str(root))) if root is not None else {}


@recorded_memo
def _loaders_under(root: str) -> tuple[tuple[str, str], ...]:
    from preflight.validate_project import _SKIP_DIRS, MAX_BYTES, MAX_FILES

    found: dict[str, str] = {}
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            seen += 1
            if seen > MAX_FILES or len(found) == 2:
                return tuple(sorted(found.items()))
            path = os.path.join(folder, name)
            try:
                if os.path.getsize(path) > MAX_BYTES:
                    continue
                text = read_text_limited(path, MAX_BYTES, errors="replace")
            except OSError:
                continue
            if "yaml" not in text.lower() and "OmegaConf" not in text and "hydra" not in text:
                continue
            for kind, pattern in (("omegaconf", _OMEGACONF), ("pyyaml", _PYYAML)):
                if kind in found:
                    continue
                match = pattern.search(text)
                if match is not None:
                    line = text.count("\n", 0, match.start()) + 1
                    found[kind] = f"{os.path.relpath(path, root)}:{line}"
    return tuple(sorted(found.items()))


def deepspeed_reader(path: str, prefix: tuple[object, ...], text: Optional[str], hf_file: bool) -> Optional[str]:
    """The reader of a DeepSpeed target of a YAML file, or None (the kind's default, PyYAML):
    ``json`` for a whole file written in JSON, ``omegaconf`` or :data:`MIXED` for a nested block of a
    file that is not a TrainingArguments file, by the project's loaders."""
    if not prefix:
        return "json" if json_text(text) else None
    if hf_file:
        return None  # HfArgumentParser.parse_yaml_file: yaml.safe_load
    loaders = yaml_loaders(Path(path))
    if "omegaconf" in loaders:
        return MIXED if "pyyaml" in loaders else "omegaconf"
    return None


def mixed_float(text: str, fixed: str, path: str) -> str:
    """The note for a YAML 1.1 string float in a file the project may read either way."""
    places = yaml_loaders(Path(path))
    return (f"{text} is the string {text!r} if this file is read with PyYAML (YAML 1.1) and a number if it is "
            f"read with OmegaConf; the project loads YAML both ways ({places.get('omegaconf', '')}, "
            f"{places.get('pyyaml', '')}), so which applies here is not known: {fixed} is a number under both")
