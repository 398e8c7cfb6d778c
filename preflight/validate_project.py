"""The fields a config file's own project declares, for ``preflight validate`` on its own.

An HfArgumentParser / TrlParser file holds the keys of every dataclass the script hands the
parser: TrainingArguments and the project's own (LLaMA-Factory's ``FinetuningArguments`` has
``lora_rank``, open-r1's ``GRPOConfig`` subclass has ``hub_model_revision``). ``preflight audit``
knows the scripts; ``validate`` and ``check`` see only the config, so they read the ``@dataclass``
fields of the Python files of the project the config lives in (the nearest folder above it with
``pyproject.toml``, ``setup.py``, ``setup.cfg`` or ``.git``), with ``ast`` only: nothing is imported
or run. Bounded: at most :data:`MAX_FILES` files of at most 1 MiB each.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Optional

from preflight.config_cache import note, recorded_memo
from preflight.sources import read_text_limited

MAX_FILES = 4000
MAX_BYTES = 1 << 20
_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_SKIP_DIRS = {"node_modules", "site-packages", "__pycache__", "build", "dist", "venv", ".venv"}


def project_root(path: Path) -> Optional[Path]:
    try:
        here = path.resolve().parent
    except OSError:
        return None
    for folder in (here, *here.parents):
        note(str(folder))  # a marker created here later moves the root: a cached config result is stale
        if any((folder / m).exists() for m in _MARKERS):
            return folder
    return None


def declared_fields(config_path: Path) -> frozenset[str]:
    """Field names of the ``@dataclass`` classes of the config's project (empty when it has none)."""
    root = project_root(config_path)
    return _fields_under(str(root)) if root is not None else frozenset()


@recorded_memo
def _fields_under(root: str) -> frozenset[str]:
    from preflight.validate import dataclass_fields

    out: set[str] = set()
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            seen += 1
            if seen > MAX_FILES:
                return frozenset(out)
            path = os.path.join(folder, name)
            try:
                if os.path.getsize(path) > MAX_BYTES:
                    continue
                text = read_text_limited(path, MAX_BYTES, errors="replace")
            except OSError:
                continue
            if "dataclass" not in text:
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            out |= dataclass_fields(tree)
    return frozenset(out)


# --------------------------------------------------------------------------- pinned library versions

_PIN_NAMES = ("requirements.txt", "environment.yml", "environment.yaml", "pyproject.toml", "setup.py", "setup.cfg")
_PIN = re.compile(r"(?<![\w.\-])(transformers|trl|accelerate|deepspeed|peft)\s*==\s*([0-9][0-9A-Za-z.+\-]*)", re.I)
# conda's own spec (`- transformers=4.44.2=pyhd8ed1ab_0`) pins too, in environment files only
_CONDA_PIN = re.compile(r"^\s*-\s*(transformers|trl|accelerate|deepspeed|peft)\s*=\s*([0-9][0-9A-Za-z.+\-]*)", re.I | re.M)


def pinned_version(config_path: Path, library: str) -> Optional[tuple[str, str]]:
    """The exact version (``==``) the config's project pins ``library`` at, with the file that
    says so: ``requirements*.txt``, ``environment.y(a)ml``, ``pyproject.toml``, ``setup.py`` or
    ``setup.cfg`` in the project's root. None when nothing pins it exactly (a lower bound such
    as ``>=4.39`` lets a fresh install take the newest release) or when two files disagree."""
    if not config_path.is_file():
        return None
    root = project_root(config_path)
    if root is None:
        return None
    return _pins_under(str(root)).get(library.lower())


@recorded_memo
def _pins_under(root: str) -> dict[str, tuple[str, str]]:
    names = set(_PIN_NAMES)
    try:
        names |= {n for n in os.listdir(root) if n.startswith("requirements") and n.endswith(".txt")}
    except OSError:
        return {}
    found: dict[str, set[tuple[str, str]]] = {}
    for name in sorted(names):
        path = os.path.join(root, name)
        try:
            if not os.path.isfile(path) or os.path.getsize(path) > MAX_BYTES:
                continue
            text = read_text_limited(path, MAX_BYTES, errors="replace")
        except OSError:
            continue
        lines = [line.split("#", 1)[0] for line in text.splitlines()]
        body = "\n".join(lines)
        matches = list(_PIN.finditer(body))
        if name.startswith("environment"):
            matches += list(_CONDA_PIN.finditer(body))
        for m in matches:
            found.setdefault(m.group(1).lower(), set()).add((m.group(2), name))
    out = {}
    for lib, pins in found.items():
        versions = {v for v, _ in pins}
        if len(versions) == 1:
            out[lib] = sorted(pins)[0]
    return out


# the release that removed each renamed field (validate's _RENAMED): a project that pins an older
# release exactly still has the old name
REMOVED_IN = {
    ("sft-config", "max_seq_length"): ("trl", "0.20"),
    ("training-args", "evaluation_strategy"): ("transformers", "4.46"),
    ("sft-config", "evaluation_strategy"): ("transformers", "4.46"),
}


def pinned_before_removal(config_path: Path, kind: str, key: str) -> str:
    """``lib==X (file)`` when the config's project pins the library exactly at a release that
    still has the renamed ``key``; empty otherwise."""
    removed = REMOVED_IN.get((kind, key))
    if removed is None:
        return ""
    pin = pinned_version(config_path, removed[0])
    if pin is None or not older_than(pin[0], removed[1]):
        return ""
    return f"{removed[0]}=={pin[0]} ({pin[1]})"


def older_than(version: str, removed_in: str) -> bool:
    """Whether ``version`` is a release before ``removed_in`` (numeric parts only)."""
    def parts(text: str) -> tuple[int, ...]:
        return tuple(int(p) for p in re.findall(r"\d+", text.split("+")[0])[:3])

    return parts(version) < parts(removed_in)
