"""A YAML config that does not parse: is it one of the configs a job loads, decided on evidence.

A file found in a folder that does not parse is reported only when something says it is a training
config; otherwise it is counted as not recognised (a Helm chart, a docs page, a data file). Its name
or its keys may say so (:func:`preflight.validate_kinds.looks_like_config`). A project config of
no library kind preflight models (a LAVIS-style ``model:`` / ``datasets:`` / ``run:`` file read by
the project's own ``OmegaConf.load``) has neither, so the evidence here is its family:

* a sibling YAML file in the same folder parses (after its fill-in placeholders are filled) to a
  mapping with exactly the same top-level keys as the broken file, at least two of them. The broken
  file is one of a set of configs of one shape (DAMO-NLP-SG/Video-LLaMA's
  ``train_configs/visionbranch_stage2_finetune.yaml`` next to ``visionbranch_stage1_pretrain.yaml``,
  both ``model``/``datasets``/``run``), and the job that loads its siblings loads it the same way.

A template is not reported for the placeholders themselves: ``"a" or "b"`` choices and bare
upper-case names are filled in first (:func:`preflight.validate_yaml.filled_template`), and only an
error that remains is one. A Jinja template (``{{ }}``, ``{% %}``) is never filled and never reported
by this evidence.

Nothing is imported or run; siblings are read bounded (at most :data:`MAX_SIBLINGS` files of at
most :data:`MAX_BYTES` each).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from preflight.sources import read_text_limited

if TYPE_CHECKING:
    from preflight.diagnostics import FileError

__all__ = ["MAX_BYTES", "MAX_SIBLINGS", "family_error", "sibling_of_same_shape", "top_level_keys"]

MAX_SIBLINGS = 40
MAX_BYTES = 256 * 1024
_TOP_KEY = re.compile(r"""^(?:"([^"\n]+)"|'([^'\n]+)'|([A-Za-z_][\w.\-]*))[ \t]*:(?:[ \t]|$)""", re.M)


def top_level_keys(text: str) -> frozenset[str]:
    """The keys written at column 0 of a YAML text (``key:`` lines), read without parsing it."""
    out = set()
    for m in _TOP_KEY.finditer(text[:MAX_BYTES]):
        out.add(m.group(1) or m.group(2) or m.group(3))
    return frozenset(out)


def _parsed_top_keys(path: Path) -> Optional[frozenset[str]]:
    from preflight.loaders import LoadedConfig, load_config_text
    from preflight.validate_yaml import filled_template, template_placeholders

    try:
        if os.path.getsize(path) > MAX_BYTES:
            return None
        text = read_text_limited(path, MAX_BYTES, errors="replace")
    except OSError:
        return None
    loaded = load_config_text(text, "yaml", str(path))
    if not isinstance(loaded, LoadedConfig) and template_placeholders(text):
        filled = filled_template(text)
        loaded = load_config_text(filled, "yaml", str(path)) if filled is not None else loaded
    if not isinstance(loaded, LoadedConfig) or not isinstance(loaded.data, dict):
        return None
    return frozenset(str(k) for k in loaded.data)


def sibling_of_same_shape(path: Path, text: str) -> Optional[str]:
    """The name of a sibling YAML file that parses to the same top-level keys (two or more) as the
    unparsable ``text`` of ``path``, or None."""
    keys = top_level_keys(text)
    if len(keys) < 2:
        return None
    try:
        names = sorted(n for n in os.listdir(path.parent)
                       if n.endswith((".yaml", ".yml")) and n != path.name and not n.startswith("."))
    except OSError:
        return None
    for name in names[:MAX_SIBLINGS]:
        if _parsed_top_keys(path.parent / name) == keys:
            return name
    return None


def family_error(path: Path, text: str, error: FileError) -> Optional[FileError]:
    """``error`` (the file's parse error) with the evidence that the file is a config of its folder's
    family, or None when there is none."""
    from preflight.diagnostics import FileError

    if not path.name.endswith((".yaml", ".yml")):
        return None
    sibling = sibling_of_same_shape(path, text)
    if sibling is None:
        return None
    keys = ", ".join(sorted(top_level_keys(text)))
    return FileError(error.path, f"{error.message} (a config like {sibling} next to it, which has the same "
                                 f"top-level keys {keys}: whatever loads that one cannot load this one)",
                     line=error.line, column=error.column)
