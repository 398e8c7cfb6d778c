"""``srun [options] other_script.sh [args]``: a Slurm launch script whose ``srun`` runs another
shell script of the project, which holds the training command (fundamentalvision/Deformable-DETR
@ 11169a6 ``tools/run_dist_slurm.sh:14,24-32``: ``RUN_COMMAND=${@:4}`` then ``srun -p ...
--ntasks=${GPUS} --ntasks-per-node=${GPUS_PER_NODE} ... ${RUN_COMMAND}``, run as
``run_dist_slurm.sh <partition> deformable_detr 16 configs/r50_deformable_detr.sh``, whose
``python -u main.py ...`` is the job). Each task srun starts runs that script, so the job is the
inner script's launch line under this ``srun``: its tokens are put after the ``srun`` options and
read again. Nothing is run."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

_SHELL = (".sh", ".bash")


def srun_wrapped_launches(shell, find: Callable[[str], Optional[Path]], sourced=None):
    """``(inner path, inner text, inner ShellScript, launch lines)`` for the first ``srun`` line
    whose command is a project shell script holding launch lines, each line's info re-read under
    that ``srun``; None when there is none."""
    from preflight.adapters.launchers import parse_launch
    from preflight.adapters.shell import LaunchLine, read_shell
    from preflight.sources import read_text_limited

    for ln in shell.launches:
        info = ln.info
        if info.script is not None or info.wrapper != "srun" or not info.script_args:
            continue
        command = info.script_args[0]
        if not command.endswith(_SHELL):
            continue
        target = find(command)
        if target is None:
            continue
        try:
            text = read_text_limited(target, errors="replace")
        except OSError:
            continue
        if len(text) > 2_000_000:
            continue
        inner = read_shell(text, str(target), list(info.script_args[1:]), sourced=sourced)
        prefix = ln.tokens[:len(ln.tokens) - len(info.script_args)]
        lines = []
        for inner_ln in inner.launches:
            if inner_ln.info.script is None or inner_ln.info.wrapper is not None \
                    or inner_ln.info.launcher not in ("python", None):
                continue
            tokens = [*prefix, *inner_ln.tokens]
            lines.append(LaunchLine(inner_ln.line, inner_ln.text, tokens, parse_launch(tokens), inner_ln.cwd))
        if lines:
            return target, text, inner, lines, ln
    return None
