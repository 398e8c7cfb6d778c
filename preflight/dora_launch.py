"""``dora run``: Dora's local run of a project's ``train`` module, read as the Python command it is.

facebookresearch/demucs @ e976d93 ``docs/training.md:61-73`` trains with ``dora run [-d] model=htdemucs``
(``Makefile:10`` ``python3 -m dora run``); facebookresearch/audiocraft trains the same way (``dora run
solver=...``). Dora (facebookresearch/dora ``dora/__main__.py``, ``dora/run.py``) imports
``PACKAGE.train`` and calls its ``main`` (a ``@hydra_main``/``@argparse_main``) with the overrides as
``sys.argv[1:]``:

* the package is ``-P/--package PKG``, else ``DORA_PACKAGE``, else the one folder of the working
  directory that is a package (``__init__.py``) holding ``train.py``; the module is ``--main_module``
  (default ``train``);
* ``dora run`` without ``-d`` runs ``main`` in this one process (``DORA_WORLD_SIZE=1``); ``-d/--ddp``
  starts one worker process per visible GPU (``--ddp_workers N``: N), as ``torchrun
  --nproc_per_node gpu`` does.

``dora run ARGS`` becomes ``python -m PKG.train ARGS`` (``torchrun --nproc_per_node gpu -m PKG.train
ARGS`` with ``-d``). ``dora grid``/``dora launch`` submit experiments to a cluster from a grid file: not
read (said so). Nothing is imported or run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional, Sequence

_ENV = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_GLOBAL_VALUE = {"-P", "--package", "--main_module"}
_GLOBAL_BOOL = {"-v", "--verbose"}
_RUN_VALUE = {"-f", "--from_sig", "--ddp_workers"}
_RUN_BOOL = {"-d", "--ddp", "--git_save", "--clear"}


def _head(tokens: Sequence[str]) -> tuple[int, dict[str, str]]:
    """The index after ``dora`` (or ``python -m dora``), and the environment prefix; -1 when the
    command is no Dora command."""
    env: dict[str, str] = {}
    i = 0
    while i < len(tokens) and _ENV.match(tokens[i]):
        m = _ENV.match(tokens[i])
        assert m is not None
        env[m.group(1)] = m.group(2)
        i += 1
    if i < len(tokens) and os.path.basename(tokens[i]) == "dora":
        return i + 1, env
    if i + 2 < len(tokens) and re.fullmatch(r"python[\d.]*", os.path.basename(tokens[i])) \
            and tokens[i + 1] == "-m" and tokens[i + 2] == "dora":
        return i + 3, env
    return -1, env


def _options(tokens: Sequence[str], i: int, values: set[str], bools: set[str],
             out: dict[str, str]) -> int:
    while i < len(tokens) and tokens[i].startswith("-"):
        name, eq, value = tokens[i].partition("=")
        if name in values:
            if eq:
                out[name] = value
                i += 1
            else:
                out[name] = tokens[i + 1] if i + 1 < len(tokens) else ""
                i += 2
        elif name in bools:
            out[name] = ""
            i += 1
        else:
            return -1  # an option this reader does not know: the line is not guessed at
    return i


def _package(base: Path) -> Optional[str]:
    """Dora's search: the package folders of ``base`` that hold ``train.py`` (one, else None)."""
    try:
        found = sorted(c.name for c in base.iterdir()
                       if c.is_dir() and (c / "__init__.py").is_file() and (c / "train.py").is_file())
    except OSError:
        return None
    return found[0] if len(found) == 1 else None


def dora_launch(tokens: Sequence[str], base: Path) -> Optional[tuple[Optional[list[str]], str]]:
    """``(the Python launch line, a note)`` for a ``dora run`` command run in ``base``; ``(None,
    why)`` for a Dora command that is not read; None for any other command."""
    i, env = _head(tokens)
    if i < 0:
        return None
    glob: dict[str, str] = {}
    i = _options(tokens, i, _GLOBAL_VALUE, _GLOBAL_BOOL, glob)
    if i < 0 or i >= len(tokens):
        return None, "dora: the command's options are not read (no `run` found)"
    command = tokens[i]
    if command != "run":
        return None, (f"dora {command}: Dora submits the experiments of a grid to a cluster; only `dora run` "
                      "(a local run of the project's train module) is read")
    run: dict[str, str] = {}
    j = _options(tokens, i + 1, _RUN_VALUE, _RUN_BOOL, run)
    if j < 0:
        return None, "dora run: an option of the line is not known to this reader; the line is not read"
    package = glob.get("-P") or glob.get("--package") or env.get("DORA_PACKAGE")
    how = "-P" if (glob.get("-P") or glob.get("--package")) else "DORA_PACKAGE" if package else ""
    if not package:
        package = _package(base)
        how = f"the one package of {base.name or '.'} holding train.py"
    if not package:
        return None, ("dora run: the training package is not named (-P or DORA_PACKAGE) and no single package "
                      "folder with a train.py is here; nothing is audited")
    module = f"{package}.{glob.get('--main_module') or 'train'}"
    overrides = list(tokens[j:])
    if "-d" in run or "--ddp" in run:
        workers = run.get("--ddp_workers") or "gpu"
        line = [f"{k}={v}" for k, v in env.items()] + ["torchrun", "--nproc_per_node", workers, "-m", module,
                                                      *overrides]
        procs = f"{workers} worker processes" if workers != "gpu" else "one worker process per visible GPU"
        note = f"dora run -d: Dora runs {module} ({how}) in {procs}; read as {' '.join(line)}"
    else:
        line = [f"{k}={v}" for k, v in env.items()] + ["python", "-m", module, *overrides]
        note = f"dora run: Dora runs {module} ({how}) in this one process; read as {' '.join(line)}"
    if "-f" in run or "--from_sig" in run:
        note += "; the overrides of the earlier run named by --from_sig are not known statically"
    return line, note
