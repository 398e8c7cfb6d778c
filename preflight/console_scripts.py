"""A job launched by a project's console script or through a project runner, read as the Python module it runs.

eriklindernoren/PyTorch-YOLOv3 @ 1d621c8 ``README.md:88``: ``poetry run yolo-train --data config/coco.data``,
where ``pyproject.toml:40`` ``[tool.poetry.scripts]`` maps ``yolo-train = "pytorchyolo.train:run"``. The same
name is a command on the PATH after ``pip install -e .`` / ``poetry install``. Read here, without running
anything:

* the runner prefixes ``poetry run``, ``uv run``, ``pipenv run``, ``pdm run``, ``hatch run`` and ``rye run``
  (the command after them runs in the project's environment; the runner starts no other process), each
  without options of its own (an option such as ``uv run --with X`` leaves the line as it was);
* console scripts declared in the project's ``pyproject.toml`` (``[project.scripts]``,
  ``[tool.poetry.scripts]``), ``setup.cfg`` (``[options.entry_points] console_scripts``) or ``setup.py``
  (``entry_points={"console_scripts": ["name = module:func", ...]}`` as a literal).

``NAME ARGS`` becomes ``python -m MODULE ARGS``: the module the entry point names is the job's script, and
the entry function (``run``) is noted. A name declared nowhere in the project is left alone (a tool of its
own, such as ``tune`` or ``axolotl``, is read by :mod:`preflight.jobs`).
"""

from __future__ import annotations

import ast
import configparser
import os
import re
from pathlib import Path
from typing import Any, Optional, Sequence

from preflight.sources import read_text_limited

RUNNERS = ("poetry", "uv", "pipenv", "pdm", "hatch", "rye")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SPEC = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*=\s*([A-Za-z_][\w.]*)\s*(?::\s*([A-Za-z_][\w.]*))?\s*(\[.*\])?\s*$")


def runner_end(tokens: Sequence[str], i: int) -> int:
    """The index after ``RUNNER run`` at ``tokens[i]`` (the command it runs starts there), or ``i`` when
    ``tokens[i]`` is no runner prefix or the runner has options of its own."""
    if i + 2 < len(tokens) and os.path.basename(tokens[i]) in RUNNERS and tokens[i + 1] == "run" \
            and not tokens[i + 2].startswith("-"):
        return i + 2
    return i


def _pyproject(path: Path) -> dict[str, str]:
    from preflight.loaders_toml import _toml_module

    module = _toml_module()
    if module is None:
        return {}
    try:
        data = module.loads(read_text_limited(path, errors="replace"))
    except (OSError, ValueError):
        return {}
    out: dict[str, str] = {}
    project = data.get("project")
    tool = data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    for table in (project.get("scripts") if isinstance(project, dict) else None,
                  poetry.get("scripts") if isinstance(poetry, dict) else None):
        if isinstance(table, dict):
            out.update({k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, str)})
    return out


def _setup_cfg(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(read_text_limited(path, errors="replace"))
        text = parser.get("options.entry_points", "console_scripts", fallback="")
    except (OSError, configparser.Error):
        return {}
    return _specs(text.splitlines())


def _setup_py(path: Path) -> dict[str, str]:
    try:
        tree = ast.parse(read_text_limited(path, errors="replace"))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.keyword) and node.arg == "entry_points" and isinstance(node.value, ast.Dict)):
            continue
        for key, value in zip(node.value.keys, node.value.values):
            if isinstance(key, ast.Constant) and key.value == "console_scripts":
                try:
                    items = ast.literal_eval(value)
                except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                    return {}
                if isinstance(items, str):
                    items = items.splitlines()
                if isinstance(items, (list, tuple)):
                    return _specs([i for i in items if isinstance(i, str)])
    return {}


def _specs(lines: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in lines:
        m = _SPEC.match(line)
        if m and m.group(3):
            out[m.group(1)] = f"{m.group(2)}:{m.group(3)}"
    return out


def entry_points(bases: Sequence[Path]) -> dict[str, tuple[str, Path]]:
    """Console script name -> (``module:func``, the file that declares it), from the first base (the working
    directory, then its parents) holding a packaging file that declares any."""
    for base in bases:
        found: dict[str, tuple[str, Path]] = {}
        for name, reader in (("setup.py", _setup_py), ("setup.cfg", _setup_cfg), ("pyproject.toml", _pyproject)):
            path = base / name
            if path.is_file():
                found.update({k: (v, path) for k, v in reader(path).items()})
        if found:
            return found
    return {}


def console_launch(tokens: Sequence[str], bases: Sequence[Path], find_module) -> Optional[tuple[list[str], str]]:
    """``[ENV=...] [RUNNER run] NAME ARGS`` with NAME a console script of the project whose module is found
    (``find_module(module)``): ``([ENV=...] python -m MODULE ARGS, a note)``; None otherwise."""
    k = 0
    while k < len(tokens) and _ENV.match(tokens[k]):
        k += 1
    j = runner_end(tokens, k)
    if j >= len(tokens):
        return None
    name = tokens[j]
    if "/" in name or name.endswith(".py") or name.startswith(("-", "python")):
        return None
    declared = entry_points(bases).get(name)
    if declared is None:
        return None
    spec, where = declared
    module, _, func = spec.partition(":")
    if find_module(module) is None:
        return None
    runner = f"{tokens[k]} run " if j > k else ""
    note = (f"the launch line's {runner}{name} is the console script declared in {where.name} "
            f"({name} = {spec}): audited as python -m {module} (entry function {func}())")
    return [*tokens[:k], "python", "-m", module, *tokens[j + 1:]], note


def console_under_srun(shell, bases: Sequence[Path], find_module) -> list[tuple[Any, str]]:
    """The launch lines of a read launch script that run a project console script under ``srun``, each as
    ``srun ... python -m MODULE ARGS`` (with the ``#SBATCH`` allocation, as a ``srun python`` line gets) and
    its note. Ruunyox/pytorch-hpc @ c5848148 ``examples/fit/cli_test_multi_node_multi_gpu.sh:18``: ``srun
    pythpc --config X.yaml fit ...`` with ``setup.py:29`` ``pythpc = pytorch_hpc.scripts.__main__:main`` (a
    LightningCLI); None of the lines runs a declared name: an empty list."""
    from preflight.adapters.launchers import parse_launch
    from preflight.adapters.shell import LaunchLine, _srun_allocation

    out: list[tuple[Any, str]] = []
    for ln in shell.launches:
        info = ln.info
        args = list(info.script_args)
        if info.script is not None or info.launcher is not None or info.wrapper != "srun" or not args \
                or ln.tokens[len(ln.tokens) - len(args):] != args:
            continue
        got = console_launch(args, bases, find_module)
        if got is None:
            continue
        tokens = [*ln.tokens[:len(ln.tokens) - len(args)], *got[0]]
        new = parse_launch(tokens)
        if new.script is None:
            continue
        if shell.slurm_env:
            tokens, new = _srun_allocation(tokens, new, shell.slurm_env)
        out.append((LaunchLine(ln.line, ln.text, tokens, new, ln.cwd, ln.loop), got[1]))
    return out
