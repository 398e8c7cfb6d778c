"""Whether the launch scripts beside a training script start it as ONE process.

A file that sets up data-parallel training (``deepspeed.initialize``, DDP) may still be launched
as a single process: ``deepspeed --num_gpus 1 train.py``, ``deepspeed --include localhost:0
train.py``, ``torchrun --nproc_per_node 1 train.py``, ``accelerate launch --num_processes 1``.
Code rules about what every rank does (a loader without a distributed sampler) then describe no
bug. The shell scripts of the analysed file's folder (``.sh``, ``.bash``, ``.sbatch``,
``.slurm``; at most :data:`MAX_SCRIPTS`, read bounded) are searched for launch lines that name
the file; the answer is yes only when there is at least one and every one of them is a launcher
line with a process count of one. A plain ``python train.py`` line, an ``srun``/``mpirun``
wrapper, a hostfile, a count that is a shell variable: not known, so no. Nothing is run.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Optional

if TYPE_CHECKING:
    from preflight.analysis.context import FileContext

MAX_SCRIPTS = 16
MAX_BYTES = 256 * 1024
_SUFFIXES = (".sh", ".bash", ".sbatch", ".slurm")
_LAUNCHERS = ("deepspeed", "torchrun", "accelerate", "torch.distributed.launch")


def single_process_launch(ctx: FileContext) -> bool:
    """Every launch line beside the analysed file that runs it starts exactly one process."""
    return bool(ctx.cached("launch-world-single", lambda: _single(ctx)))


def _launch_scripts(ctx: FileContext) -> Optional[tuple[Path, list[Path]]]:
    """The analysed file and the launch scripts beside it, or None (not a file, none, or too many to read)."""
    from preflight.analysis import project_imports

    try:
        me = Path(ctx.parsed.source.path)
        if not me.is_file():
            return None
        here = me.resolve().parent
        scripts = sorted(p for p in here.iterdir() if p.suffix in _SUFFIXES and p.is_file())
    except (OSError, RuntimeError, ValueError):
        return None
    if not scripts or len(scripts) > MAX_SCRIPTS:
        return None
    project_imports._local.read = True  # the result depends on other files: not cached by content
    return me, scripts


def _single(ctx: FileContext) -> bool:
    located = _launch_scripts(ctx)
    if located is None:
        return False
    me, scripts = located
    verdicts = [v for path in scripts for v in _lines_running(path, me.name)]
    return bool(verdicts) and all(verdicts)


def _lines_running(path: Path, name: str) -> list[bool]:
    """For each command line of ``path`` that names the script ``name``: whether it is one process."""
    out: list[bool] = []
    for line in _lines_naming([path], name):
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError:
            out.append(False)
            continue
        if not any(os.path.basename(t) == name for t in tokens):
            continue
        out.append(_one_process(tokens))
    return out


def _one_process(tokens: list[str]) -> bool:
    from preflight.adapters.launch_line import parse_launch

    info = parse_launch(tokens)
    if info.launcher not in _LAUNCHERS or info.wrapper is not None:
        return False
    if info.total_procs is not None:
        return info.total_procs == 1
    if info.launcher == "deepspeed" and "__hostfile" not in info.options:
        # `deepspeed --num_gpus 1 train.py` with no --num_nodes and no hostfile: this machine, one GPU
        return info.procs_per_node == 1 and info.nodes in (None, 1)
    return False


def launch_script_args(ctx: FileContext) -> list[list[str]]:
    """The script arguments of every launch line beside the analysed file that runs it (a launcher
    or ``python`` line naming the file; ``deepspeed main.py --num_train_epochs 1`` gives
    ``["--num_train_epochs", "1"]``). Empty when there is no such line or a line cannot be read."""
    return list(ctx.cached("launch-world-args", lambda: _script_args(ctx)))


def _script_args(ctx: FileContext) -> list[list[str]]:
    from preflight.adapters.launch_line import parse_launch

    located = _launch_scripts(ctx)
    if located is None:
        return []
    me, scripts = located
    out: list[list[str]] = []
    for line in _lines_naming(scripts, me.name):
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError:
            return []
        info = parse_launch(tokens)
        if info.script is None or os.path.basename(info.script) != me.name:
            if any(os.path.basename(t) == me.name for t in tokens):
                return []  # a line that runs the file in a way not read: its arguments are not known
            continue
        out.append([str(t) for t in info.script_args])
    return out


def _lines_naming(scripts: list[Path], name: str) -> Iterator[str]:
    """The lines (continuations joined, stripped, comments left out) of the launch scripts that hold
    ``name``; a script that cannot be read is passed over."""
    from preflight.sources import InputRefused, read_text_limited

    for path in scripts:
        try:
            text = read_text_limited(path, MAX_BYTES, errors="replace")
        except (OSError, InputRefused, ValueError):
            continue
        for line in text.replace("\\\n", " ").splitlines():
            line = line.strip()
            if line and not line.startswith("#") and name in line:
                yield line


def launch_accumulation_window(ctx: FileContext) -> bool:
    """Some ``accelerate launch`` line beside the analysed file gives the Accelerator a window above 1
    through the launcher: ``--gradient_accumulation_steps N`` with DeepSpeed, or the config file's
    ``deepspeed_config.gradient_accumulation_steps`` (accelerate v1.6.0 ``utils/launch.py``
    ``prepare_deepspeed_cmd_env`` exports it as ``ACCELERATE_GRADIENT_ACCUMULATION_STEPS``, which
    ``Accelerator.__init__`` reads when no window is passed). Where no launch script beside the file
    runs it, an accelerate DeepSpeed config beside it (``.yaml``/``.yml`` with ``distributed_type:
    DEEPSPEED`` and a ``deepspeed_config.gradient_accumulation_steps`` above 1) counts: the job is
    launched from the command line with that config (accelerate 3836)."""
    return bool(ctx.cached("launch-world-accumulation", lambda: _accumulation(ctx) or _config_beside(ctx)))


def _config_beside(ctx: FileContext) -> bool:
    """An accelerate DeepSpeed config in the analysed file's folder sets a window above 1, and no
    launch script of that folder names the file (a launch line that does is read instead)."""
    from preflight.analysis import project_imports
    from preflight.loaders import LoadedConfig, load_config_text
    from preflight.sources import InputRefused, read_text_limited

    try:
        me = Path(ctx.parsed.source.path)
        if not me.is_file():
            return False
        here = me.resolve().parent
        configs = sorted(p for p in here.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    except (OSError, RuntimeError, ValueError):
        return False
    if not configs or len(configs) > MAX_SCRIPTS:
        return False
    project_imports._local.read = True  # the result depends on other files: not cached by content
    located = _launch_scripts(ctx)
    if located is not None and any(True for _ in _lines_naming(located[1], me.name)):
        return False
    for found in configs:
        try:
            loaded = load_config_text(read_text_limited(found, MAX_BYTES, errors="replace"), "yaml", str(found))
        except (OSError, InputRefused, ValueError):
            continue
        data = loaded.data if isinstance(loaded, LoadedConfig) else None
        if not isinstance(data, dict) or str(data.get("distributed_type", "")).upper() != "DEEPSPEED":
            continue
        block = data.get("deepspeed_config")
        if isinstance(block, dict) and _window(block.get("gradient_accumulation_steps")):
            return True
    return False


def _window(value: object) -> bool:
    try:
        return isinstance(value, (int, str)) and not isinstance(value, bool) and int(value) > 1
    except ValueError:
        return False


def _accumulation(ctx: FileContext) -> bool:
    from preflight.adapters.launch_line import parse_launch
    from preflight.loaders import LoadedConfig, load_config_text
    from preflight.sources import InputRefused, read_text_limited

    located = _launch_scripts(ctx)
    if located is None:
        return False
    me, scripts = located
    here = scripts[0].parent  # the scripts were listed from the analysed file's folder
    for line in _lines_naming(scripts, me.name):
        try:
            info = parse_launch(shlex.split(line, comments=True))
        except ValueError:
            continue
        if info.launcher != "accelerate" or info.script is None or os.path.basename(info.script) != me.name:
            continue
        if "__use_deepspeed" in info.options and _window(info.options.get("__gradient_accumulation_steps")):
            return True
        config = info.options.get("__config_file")
        if not config:
            continue
        try:
            found = (here / config) if not os.path.isabs(config) else Path(config)
            loaded = load_config_text(read_text_limited(found, MAX_BYTES, errors="replace"), "yaml", str(found))
        except (OSError, InputRefused, ValueError):
            continue
        data = loaded.data if isinstance(loaded, LoadedConfig) else None
        block = data.get("deepspeed_config") if isinstance(data, dict) else None
        if isinstance(block, dict) and _window(block.get("gradient_accumulation_steps")):
            return True
    return False
