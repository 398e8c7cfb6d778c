"""How a config's project reads YAML, for ``preflight validate`` on its own: with OmegaConf
(``5e-5`` is a float) or PyYAML (``5e-5`` is a string), from the ``ast`` of the project's
Python files (:func:`yaml_reader`); and whether the project's code mentions a word at all
(:func:`code_without`). Nothing is imported or run; bounded like
:mod:`preflight.validate_project`'s field reading."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Optional

from preflight.config_cache import note, recorded_memo
from preflight.sources import read_text_limited
from preflight.validate_walk import _SKIP_DIRS, MAX_BYTES, MAX_FILES, project_files, project_root

_YAML_LOADS = ("safe_load", "load", "full_load", "unsafe_load")
_OMEGACONF_LOADS = ("load", "create")


def yaml_reader(config_path: Path) -> Optional[str]:
    """``"omegaconf"`` when the Python files of the config's project (its marked root, else the
    config's own folder alone) load configs with ``OmegaConf.load``/``OmegaConf.create`` and none
    reads YAML with PyYAML (``yaml.safe_load``/``yaml.load``, ``HfArgumentParser.parse_yaml_file``,
    ``TrlParser``): LLaMA-Factory after its PR 8505 reads ``5e-5`` with ``OmegaConf.load`` (a float)
    and hands the dict to ``HfArgumentParser.parse_dict``; ``"pyyaml"`` when one of those does;
    None when no Python file there says. Read with ``ast`` only; bounded like the fields."""
    root = project_root(config_path)
    if root is not None:
        return _reader_under(str(root)) or None
    try:
        folder = config_path.resolve().parent
    except OSError:
        return None
    return _reader_beside(str(folder)) or None


def _reads(tree: ast.AST) -> tuple[bool, bool]:
    """(loads with OmegaConf, reads YAML another way) for one module."""
    omega = other = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in ("parse_yaml_file", "TrlParser"):
            other = True  # HfArgumentParser.parse_yaml_file and TrlParser's --config use yaml.safe_load
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner = func.value.id
            if owner == "OmegaConf" and func.attr in _OMEGACONF_LOADS:
                omega = True
            elif owner == "yaml" and func.attr in _YAML_LOADS:
                other = True
    return omega, other


def _reader_of(paths: list[str]) -> str:
    omega = other = False
    for path in paths[:MAX_FILES]:
        try:
            if os.path.getsize(path) > MAX_BYTES:
                continue
            text = read_text_limited(path, MAX_BYTES, errors="replace")
        except OSError:
            continue
        if "OmegaConf" not in text and "yaml" not in text and "TrlParser" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        o, x = _reads(tree)
        omega, other = omega or o, other or x
        if other:
            return "pyyaml"
    return "omegaconf" if omega else ""


@recorded_memo
def _reader_under(root: str) -> str:
    paths: list[str] = []
    for folder, dirs, files in os.walk(root):
        note(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        paths.extend(os.path.join(folder, n) for n in sorted(files) if n.endswith(".py"))
        if len(paths) > MAX_FILES:
            break
    return _reader_of(paths)


@recorded_memo
def _reader_beside(folder: str) -> str:
    note(folder)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return ""
    return _reader_of([os.path.join(folder, n) for n in names if n.endswith(".py")])


def code_without(config_path: Path, words: tuple[str, ...]) -> bool:
    """The config's project has Python code and none of it contains any of ``words``: the marked
    project root's files, else the ``.py`` files of the nearest folder that has some among the
    config's own and the two above it (``conf/train.yaml`` with ``run.py`` one level up). False when no Python file is found (no evidence)."""
    root = project_root(config_path)
    if root is not None:
        texts = [t for _, t in project_files(str(root), (".py",))]
        return _none_say(texts, words)
    try:
        folder = config_path.resolve().parent
    except OSError:
        return False
    for above in (folder, *list(folder.parents)[:2]):
        texts = list(_py_beside(str(above)))
        if texts:  # the nearest folder with Python files decides (never a shared folder further up)
            return _none_say(texts, words)
    return False


def _none_say(texts: list[str], words: tuple[str, ...]) -> bool:
    return bool(texts) and not any(w in t for t in texts for w in words)


@recorded_memo
def _py_beside(folder: str) -> tuple[str, ...]:
    note(folder)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return ()
    out = []
    for name in names[:MAX_FILES]:
        if not name.endswith(".py"):
            continue
        path = os.path.join(folder, name)
        try:
            if os.path.getsize(path) > MAX_BYTES:
                continue
            out.append(read_text_limited(path, MAX_BYTES, errors="replace"))
        except OSError:
            continue
    return tuple(out)
