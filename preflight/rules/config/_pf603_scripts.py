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

from preflight.sources import read_text_limited

if TYPE_CHECKING:
    from preflight.validate import Problem

_PYYAML = ("yaml.safe_load", "yaml.load", "yaml.full_load", "yaml.unsafe_load",
           # yacs reads YAML with ``yaml.safe_load`` (yacs/config.py ``_load_cfg_from_yaml_str``) and
           # ``CfgNode.load_cfg`` keeps the strings (yacs issue 46: ``BASE_LR: 1e-3`` reaches the code as
           # "1e-3"); ``merge_from_file`` is not one: ``_merge_a_into_b`` passes every value through
           # ``_decode_cfg_value`` (``literal_eval``), which turns "1e-3" into 0.001 (yacs, fvcore, detectron2)
           "yacs.config.CfgNode.load_cfg", "yacs.config.load_cfg",
           # confuse loads its YAML sources with a ``yaml.SafeLoader`` subclass (confuse/yaml_util.py), so
           # ``lr: 1e-4`` read through ``config["arch"].get()`` is the string "1e-4" (confuse issue 91)
           "confuse.Configuration", "confuse.LazyConfig")
_OMEGACONF = ("omegaconf.OmegaConf.load", "omegaconf.OmegaConf.create")


def _module_name(display: str) -> str:
    """``gs/config.py`` -> ``gs.config`` (the dotted name other files import it by)."""
    path = display.replace(os.sep, "/")
    if path.endswith(".py"):
        path = path[:-3]
    if path.endswith("/__init__"):
        path = path[: -len("/__init__")]
    return path.strip("./").replace("/", ".")


def _imports(script: Any, module: str) -> bool:
    """The script imports ``module`` (or a module ending in it: ``from gs.config import
    GSConfig`` for ``src/gs/config.py``)."""
    import ast

    for node in ast.walk(script.tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        if any(module == n or module.endswith("." + n) for n in names if n.count(".") >= 1 or n == module):
            return True
    return False


def _reader(project: Any, name: str) -> str:
    """``script:line`` of a PyYAML read in an audited script that names the file ``name``, or
    in a module of the project that such a script imports (a config class:
    ``GSConfig(args.cf)`` with ``--cf configs/x.yaml`` and ``yaml.safe_load`` in ``gs/config.py``),
    or ''."""
    naming: list[Any] = []
    readers: list[tuple[Any, int]] = []
    for script in project.scripts:
        idx = project.index(script)
        if idx.find(*_OMEGACONF):
            return ""
        text = script.text if script.text is not None else script.source.text
        if not text:
            continue
        sites = idx.find(*_PYYAML)
        if sites:
            readers.append((script, sites[0].line))
        if name in text or _launched_with(project, script, name):
            naming.append(script)
    for script, line in readers:
        if script in naming:
            return f"{script.source.display}:{line}"
    for script, line in readers:
        module = _module_name(script.source.display)
        if module and any(getattr(n, "tree", None) is not None and _imports(n, module) for n in naming):
            return f"{script.source.display}:{line}"
    for script in naming:  # a local module the naming script imports, not itself audited
        found = _local_pyyaml_reader(script)
        if found:
            return found
    return ""


def _launched_with(project: Any, script: Any, name: str) -> bool:
    """The audited launch line runs ``script`` with the file ``name`` as an argument
    (``python train.py --config-file configs/x.yaml``)."""
    argv = [str(a) for a in (getattr(project, "argv", None) or ())]
    base = os.path.basename(str(getattr(script.source, "path", "") or ""))
    if not base or not any(os.path.basename(a) == base for a in argv):
        return False
    return any(os.path.basename(a.partition("=")[2] or a) == name for a in argv)


_PYYAML_CALL = re.compile(r"\byaml\.(?:safe_|full_|unsafe_)?load\(")


def _local_pyyaml_reader(script: Any) -> str:
    """``path:line`` of a PyYAML read in a module of the project that ``script`` imports
    (``from gs.config import GSConfig`` -> ``gs/config.py`` beside it or above it), or ''."""
    import ast
    from pathlib import Path

    tree = getattr(script, "tree", None)
    path = getattr(script.source, "path", None)
    if tree is None or not path:
        return ""
    here = Path(path).resolve().parent
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and node.module and not node.level):
            continue
        rel = Path(*node.module.split("."))
        for base in (here, *list(here.parents)[:2]):
            for candidate in (base / rel.with_suffix(".py"), base / rel / "__init__.py"):
                try:
                    text = read_text_limited(candidate, errors="replace")
                except OSError:  # InputRefused (too large, not a regular file) is one
                    continue
                if "OmegaConf" in text:
                    return ""
                match = _PYYAML_CALL.search(text)
                if match:
                    line = text.count("\n", 0, match.start()) + 1
                    shown = os.path.relpath(candidate, here) if here in candidate.parents else candidate.name
                    return f"{shown}:{line}"
    return ""


def _converted(project: Any, key: str) -> bool:
    """Some audited script converts the key itself: ``float(config["lr"])``, ``float(cfg.lr)``."""
    pattern = re.compile(r"float\([^()\n]*(?:\[\s*['\"]" + re.escape(key) + r"['\"]\s*\]|\." + re.escape(key) + r"\b)")
    for script in project.scripts:
        text = script.text if script.text is not None else script.source.text
        if text and pattern.search(text):
            return True
        # confuse's typed reads convert: ``.as_number()``, ``.get(float)``, a ``confuse.Number()`` template
        if text and "confuse" in text and any(t in text for t in (".as_number(", ".get(float)", "Number(")):
            return True
    return False


def script_read_floats(project: Any, config: Any, text: str) -> list[Problem]:
    """The dotless scientific floats of a YAML file an audited script reads with PyYAML."""
    from preflight.validate import FLOAT_12, Problem
    from preflight.validate_schema import yaml11_float
    from preflight.validate_yaml import yaml_scalars

    if config.kind != "yaml" or not text or not project.scripts:
        return []
    reader = _reader(project, os.path.basename(str(config.path)))
    if not reader:
        return []
    out: list[Problem] = []
    for path, scalar in yaml_scalars(text).items():
        if not (scalar.plain and scalar.tag == "str" and FLOAT_12.match(scalar.text)):
            continue
        key = str(path[-1]) if path else ""
        if not key or _converted(project, key):
            continue
        dotted = ".".join(str(p) for p in path)
        out.append(Problem(config.path, scalar.line, dotted, "warning", "yaml11-float",
                           f"{scalar.text} is read as the string {scalar.text!r}, not a number: YAML 1.1 floats "
                           f"need a dot and {reader} reads this file with PyYAML, so `{dotted}` reaches the code "
                           f"as text; write {yaml11_float(scalar.text)}"))
    return out
