"""PF603 for YAML files a job's own script reads with PyYAML (``yaml.safe_load``/``yaml.load``).

validate's YAML 1.1 checks run per recognised config kind (TrainingArguments, DeepSpeed, ...).
A project's own YAML (ALBEF's ``configs/Pretrain.yaml``, a TRL example's ``sft_config.yaml``
with TrainingArguments nested under ``training:``) has no kind, yet the audited script reads it
with PyYAML, which reads ``1e-4`` as the string ``'1e-4'``. Here a plain scalar written as a
dotless scientific float is reported when an audited script names the file and reads YAML with
PyYAML, none reads it with OmegaConf, and no script converts the key with ``float(...)``.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from preflight.validate import Problem

_PYYAML = ("yaml.safe_load", "yaml.load", "yaml.full_load", "yaml.unsafe_load")
_OMEGACONF = ("omegaconf.OmegaConf.load", "omegaconf.OmegaConf.create")


def _reader(project: Any, name: str) -> str:
    """``script:line`` of a PyYAML read in an audited script that names the file ``name``, or ''."""
    where = ""
    for script in project.scripts:
        idx = project.index(script)
        if idx.find(*_OMEGACONF):
            return ""
        text = script.text if script.text is not None else script.source.text
        if not text or name not in text:
            continue
        sites = idx.find(*_PYYAML)
        if sites and not where:
            where = f"{script.source.display}:{sites[0].line}"
    return where


def _converted(project: Any, key: str) -> bool:
    """Some audited script converts the key itself: ``float(config["lr"])``, ``float(cfg.lr)``."""
    pattern = re.compile(r"float\([^()\n]*(?:\[\s*['\"]" + re.escape(key) + r"['\"]\s*\]|\." + re.escape(key) + r"\b)")
    for script in project.scripts:
        text = script.text if script.text is not None else script.source.text
        if text and pattern.search(text):
            return True
    return False


def script_read_floats(project: Any, config: Any, text: str) -> list[Problem]:
    """The dotless scientific floats of a YAML file an audited script reads with PyYAML."""
    from preflight.validate import _FLOAT_12, Problem
    from preflight.validate_schema import _yaml11_float
    from preflight.validate_yaml import yaml_scalars

    if config.kind != "yaml" or not text or not project.scripts:
        return []
    reader = _reader(project, os.path.basename(str(config.path)))
    if not reader:
        return []
    out: list[Problem] = []
    for path, scalar in yaml_scalars(text).items():
        if not (scalar.plain and scalar.tag == "str" and _FLOAT_12.match(scalar.text)):
            continue
        key = str(path[-1]) if path else ""
        if not key or _converted(project, key):
            continue
        dotted = ".".join(str(p) for p in path)
        out.append(Problem(config.path, scalar.line, dotted, "warning", "yaml11-float",
                           f"{scalar.text} is read as the string {scalar.text!r}, not a number: YAML 1.1 floats "
                           f"need a dot and {reader} reads this file with PyYAML, so `{dotted}` reaches the code "
                           f"as text; write {_yaml11_float(scalar.text)}"))
    return out
