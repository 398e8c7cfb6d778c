"""A process wrapper in front of the training command: ``numactl --cpunodebind=0 python train.py``,
``taskset -c 0-7 torchrun ...``, ``timeout 2h deepspeed ...``, ``nsys profile -t cuda,nvtx -o prof
torchrun ...``, ``conda run -n env python train.py``.

Such a wrapper starts no training process of its own: it runs the command after it (bound to some
CPUs, under a profiler, with a time limit, in a conda environment) in the same process tree, so
the command is read as if the wrapper were not there and the wrapper is named in a note. The
wrappers' own option grammars are not modelled: the command is the first word after the wrapper's
name that is a launcher or Python (``torchrun``, ``deepspeed``, ``accelerate``, ``python3.10``,
``train.py``), within the few words a wrapper's options take (jamesafranke/ViT_clouds
``run/exec_run_v2.bash:29`` @ b5fa83d: ``time $PROFILE $OUTPUT torchrun --nnodes=1 ...`` with
``PROFILE="nsys profile --trace=cuda,nvtx --force-overwrite true"``). A wrapper whose command is
anything else (``nsys profile bash run.sh``) is left alone. Nothing is run.
"""

from __future__ import annotations

import os
from typing import Optional, Sequence

#: wrappers that run the command after them in the same process tree: CPU/NUMA binding, priority,
#: time limits, output buffering, a virtual display, NVIDIA's profilers, ``conda run``
_WRAPPERS = frozenset({"numactl", "taskset", "timeout", "stdbuf", "nice", "ionice", "chrt", "unbuffer",
                       "xvfb-run", "nsys", "ncu", "nv-nsight-cu-cli", "nvprof", "catchsegv"})
#: environment runners: ``conda run -n env python train.py`` (``conda run`` only, not ``conda activate``)
_ENV_RUNNERS = frozenset({"conda", "mamba", "micromamba"})
#: how many words a wrapper's options may take before its command
_MAX_OPTION_WORDS = 16
_HEADS = frozenset({"torchrun", "accelerate", "accelerate-launch", "deepspeed", "composer", "colossalai",
                    "fairseq-train", "srun", "mpirun", "mpiexec"})


def _is_head(word: str) -> bool:
    base = os.path.basename(word)
    return base in _HEADS or base.startswith("python") or (base.endswith(".py") and not word.startswith("-"))


def wrapper_end(tokens: Sequence[str], i: int) -> tuple[int, Optional[str]]:
    """``(index of the command the wrapper runs, wrapper name)`` for a process wrapper at
    ``tokens[i]``; ``(i, None)`` when there is none there or its command is no launcher."""
    if i >= len(tokens):
        return i, None
    name = os.path.basename(tokens[i])
    start = i + 1
    if name in _ENV_RUNNERS:
        if i + 1 >= len(tokens) or tokens[i + 1] != "run":
            return i, None
        name, start = f"{name} run", i + 2
    elif name not in _WRAPPERS:
        return i, None
    if name in ("nsys", "ncu") and start < len(tokens) and tokens[start] in ("profile", "launch"):
        name, start = f"{name} {tokens[start]}", start + 1
    for j in range(start, min(len(tokens), start + _MAX_OPTION_WORDS + 1)):
        if tokens[j] == "--":
            return (j + 1, name) if j + 1 < len(tokens) and _is_head(tokens[j + 1]) else (i, None)
        if _is_head(tokens[j]) and not tokens[j - 1].endswith(("-o", "--output", "--output-file", "-e", "--export")):
            return j, name
    return i, None
