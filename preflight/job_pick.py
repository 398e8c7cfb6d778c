"""Picking the training entry point of a job given as a directory: its launch scripts and Python files ranked by what they launch (training, distributed launchers) and their names."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from preflight.diagnostics import FileError
from preflight.job_files import (
    _DIR_SCAN_LIMIT,
    _ENTRY_NAMES,
    SHELL_SUFFIXES,
    JobInputs,
    _display,
)
from preflight.sources import read_text_limited

_NOT_TRAINING = ("test", "eval", "prepare", "data", "convert", "tool", "bench", "download", "serve", "infer",
                 "export", "demo", "docker", "install", "setup", "lint", "doc")


_TRAINING = ("train", "finetune", "fine_tune", "pretrain", "sft", "dpo", "rlhf", "lora")


_DISTRIBUTED = ("torchrun", "torch.distributed.launch", "deepspeed", "accelerate", "colossalai")


def _launch_rank(rel: Path, info) -> tuple:
    words = str(rel).lower()
    script = os.path.basename(str(info.script or "")).lower()
    return (any(w in words for w in _NOT_TRAINING),
            not (info.launcher in _DISTRIBUTED or info.wrapper in ("srun", "mpiexec")),
            not any(w in script or w in rel.name.lower() for w in _TRAINING),
            len(rel.parts), str(rel))


def _line_rank(info) -> tuple[bool, bool, bool]:
    """How unlike a training job one launch line of a script is: a helper step by its script's
    name (data, eval, export ...), then not under a distributed launcher or srun, then no
    train/finetune/sft word in the name. ``sorted`` is stable: ties keep source order."""
    script = os.path.basename(str(info.script or "")).lower()
    if info.module:
        # ``python -m openrlhf.models.remote_rm.math_verifier``: the module's own name, not its
        # package's (``openrlhf`` holds the word rlhf for every module of it; TideDra/lmm-r1
        # examples/scripts/lmm_r1/train_direct_rl_geo.sh:57 a reward server before :65 training)
        script = script.rsplit(".", 1)[-1]
    return (any(w in script for w in _NOT_TRAINING),
            not (info.launcher in _DISTRIBUTED or info.wrapper in ("srun", "mpiexec")),
            not any(w in script for w in _TRAINING))


def _pick_in_directory(path: Path, root: Path, out: JobInputs) -> Optional[Path]:
    """A directory: its launch scripts first (top level, then scripts/), else an entry point."""
    shells: list[Path] = []
    entries: list[Path] = []
    count = 0
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("node_modules", "__pycache__",
                                                                                         "tests", "test", "docs"))
        depth = len(Path(dirpath).relative_to(path).parts)
        if depth > 3:
            dirnames[:] = []
        for name in sorted(filenames):
            count += 1
            if count > _DIR_SCAN_LIMIT * 10:
                break
            p = Path(dirpath) / name
            if p.suffix.lower() in SHELL_SUFFIXES:
                shells.append(p)
            elif name in _ENTRY_NAMES:
                entries.append(p)
    shells.sort(key=lambda p: (len(p.relative_to(path).parts), str(p)))
    entries.sort(key=lambda p: (len(p.relative_to(path).parts), _ENTRY_NAMES.index(p.name), str(p)))
    from preflight.adapters.shell import read_shell

    launching = []
    for s in shells[:_DIR_SCAN_LIMIT]:
        try:
            text = read_text_limited(s, errors="replace")[:500_000]
        except OSError:
            continue
        lines = [ln for ln in read_shell(text, str(s)).launches if ln.info.script]
        if lines:
            launching.append((_launch_rank(s.relative_to(path), lines[0].info), s))
    launching.sort(key=lambda item: item[0])
    if launching and launching[0][0][0] and entries:
        launching = []  # only helper scripts (data, tools, tests) launch anything: take the entry point
    ranked = [s for _, s in launching]
    if ranked:
        chosen = ranked[0]
        rest = ranked[1:]
        why = ("the launch script most like a training job (a distributed launcher running a train/finetune "
               "script, not under test/data/tools/eval; then fewest directories deep, then by name)")
        if rest:
            why += f"; {len(rest)} other(s): " + ", ".join(_display(r, root) for r in rest[:8]) + \
                   (" ..." if len(rest) > 8 else "") + " (audit each by naming it)"
        out.notes.append(f"directory {_display(path, root)}: chose {_display(chosen, root)}, {why}")
        return chosen
    if entries:
        chosen = entries[0]
        out.notes.append(f"directory {_display(path, root)}: no launch script; chose entry point "
                         f"{_display(chosen, root)} (named {chosen.name}, fewest directories deep)")
        return chosen
    out.errors.append(FileError(_display(path, root), "no launch script (.sh/.sbatch/.slurm) or entry point "
                                                      f"({', '.join(_ENTRY_NAMES)}) found"))
    return None
