"""What a job is made of and where its files are found: the inputs resolved (scripts, configs, argv, the launch line), which files are launch scripts, the directories searched (the script's, the working directory's, up to five parents), a file by name or by its path's tail, a module of the project, an installed or vendored package's module."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Optional, Sequence

from preflight._record import dataclass, field
from preflight.diagnostics import FileError

SHELL_SUFFIXES = (".sh", ".bash", ".sbatch", ".slurm", ".zsh")


CONFIG_SUFFIXES = (".json", ".yaml", ".yml", ".toml")


_ENTRY_NAMES = ("train.py", "main.py", "finetune.py", "run_train.py", "pretrain.py", "train_net.py")


_MAX_PARENTS = 5


_DIR_SCAN_LIMIT = 400


@dataclass
class JobInputs:
    scripts: list[Path] = field(default_factory=list)
    configs: list[Path] = field(default_factory=list)
    argv: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    launch_script: Optional[str] = None  # the shell script read, if any
    launch_line: Optional[int] = None
    # the shell loop around that line (preflight.adapters.shell_loops.ShellLoop), if one
    launch_loop: Optional[Any] = None
    # (display path, line, tokens) of a launch line whose script is not in the job (an error of the audit):
    # the plan rules that need only the launch line's own words read it (PF514: `--model_name_or_path t5-11b
    # --fp16` running transformers' run_translation.py)
    unfound_launch: Optional[tuple[str, int, list[str]]] = None

    def launch_at(self) -> Optional[tuple[str, int]]:
        """(display path, line) of the launch script line the job was read from, if one."""
        if self.launch_script is None or self.launch_line is None:
            return None
        return self.launch_script, self.launch_line


_NOT_SHELL = (".py", ".pyi", ".ipynb", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini", ".txt", ".md", ".rst",
              ".csv", ".lua", ".pl", ".rb", ".js")


def is_shell_script(path: Path) -> bool:
    if path.suffix.lower() in SHELL_SUFFIXES:
        return True
    if path.suffix.lower() in _NOT_SHELL or not os.path.isfile(path):
        return False  # else no suffix, or a site's own (`launch_slurm.wilkes3`): a shell shebang decides
    try:
        with open(path, "rb") as fh:  # a regular file (checked above): 64 bytes
            head = fh.read(64)
    except OSError:
        return False
    return head.startswith(b"#!") and (b"sh" in head.split(b"\n", 1)[0])


def _bases(start: Optional[Path], root: Path) -> list[Path]:
    """Where a launch line's relative names are looked up: the current directory, then the
    launch script's directory and its parents (the directory the README says to run from)."""
    out = [root]
    if start is not None:
        d = start.resolve()
        for _ in range(_MAX_PARENTS + 1):
            if d not in out:
                out.append(d)
            if (d / ".git").exists() or d.parent == d:
                break
            d = d.parent
    return out


def _find(name: str, bases: Sequence[Path]) -> Optional[Path]:
    if not name or "$" in name or "`" in name:
        return None
    p = Path(os.path.expanduser(name))
    if p.is_absolute():
        return p if p.is_file() else None
    for base in bases:
        c = base / p
        if c.is_file():
            return c
    return None


_LEADING_VAR = re.compile(r"^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|~)$")


def _find_by_tail(name: str, bases: Sequence[Path]) -> Optional[Path]:
    """``/shared/examples/mingpt/main.py`` on the cluster: the job's file with the longest
    same path ending (at least the directory and the file name) under the bases."""
    parts = Path(name).parts
    first = 1
    if parts and _LEADING_VAR.match(parts[0]):
        # ``${HOME}/ViT_clouds/scripts/torchrun_test.py``, ``$WORK/proj/train.py``: a directory
        # the shell names by a variable this run does not know, then the job's own path
        parts, first = parts[1:], 0
    if len(parts) < 3 - first or "$" in "/".join(parts):
        return None
    for k in range(first, len(parts) - 1):
        tail = Path(*parts[k:])
        for base in bases:
            cand = base / tail
            if cand.is_file():
                return cand
    return None


def _find_module(module: str, bases: Sequence[Path]) -> Optional[Path]:
    rel = module.replace(".", "/")
    for base in bases:
        for cand in (base / f"{rel}.py", base / rel / "__main__.py", base / "src" / f"{rel}.py",
                     base / "src" / rel / "__main__.py"):
            if cand.is_file():
                return cand
    return None


def _installed_module(module: str, bases: Sequence[Path]) -> Optional[Path]:
    """``python -m pkg.sub.mod`` run from a folder inside the repository of ``pkg``
    (FlagOpen/FlagEmbedding examples/finetune/embedder/README.md:170 ``torchrun -m
    FlagEmbedding.finetune.embedder.encoder_only.base`` from ``examples/finetune/embedder``, the
    package installed from the repository root with ``pip install -e .``): the module in an
    enclosing folder that is a Python project (``setup.py``/``pyproject.toml``/``setup.cfg``),
    searched upwards to the repository root (``.git``). Only a dotted name whose top package is a
    folder there, never a single-file module, and never above the repository."""
    if "." not in module:
        return None
    top = module.split(".", 1)[0]
    for base in bases:
        d = base.resolve()
        for _ in range(_MAX_PARENTS + 1):
            if d.parent == d:
                break
            d = d.parent
            if any((d / f).is_file() for f in ("setup.py", "pyproject.toml", "setup.cfg")) \
                    and ((d / top).is_dir() or (d / "src" / top).is_dir()):
                found = _find_module(module, [d])
                if found is not None:
                    return found
            if (d / ".git").exists():
                break
    return None


def _vendored_module(module: str, bases: Sequence[Path]) -> Optional[Path]:
    """``python -m pkg.sub.mod`` whose package is a Python project in a sub-folder of the
    repository, installed from there (RUCAIBox/R1-Searcher @ 631167cb
    ``scripts/qwen_reinforce_plus_train.sh:43`` ``python3 -m openrlhf.cli.train_ppo_ray`` with the
    package in ``OpenRLHF-RAG/openrlhf`` beside ``OpenRLHF-RAG/setup.py``): a folder one level below
    a base that holds ``setup.py``/``pyproject.toml``/``setup.cfg`` and the top package. Only when
    exactly one such folder has the module (two forks of one package decide nothing)."""
    if "." not in module:
        return None
    top = module.split(".", 1)[0]
    found: list[Path] = []
    for base in bases:
        try:
            children = sorted(c for c in base.iterdir() if c.is_dir() and not c.name.startswith("."))
        except OSError:
            continue
        for d in children[:200]:
            if any((d / f).is_file() for f in ("setup.py", "pyproject.toml", "setup.cfg")) \
                    and ((d / top).is_dir() or (d / "src" / top).is_dir()):
                hit = _find_module(module, [d])
                if hit is not None and hit.resolve() not in {f.resolve() for f in found}:
                    found.append(hit)
    return found[0] if len(found) == 1 else None


def _display(path: Path, root: Path) -> str:
    try:
        return os.path.relpath(path, root)
    except ValueError:
        return str(path)
