"""A container runtime in front of the training command: ``shifter --image=IMG python train.py``,
``singularity exec --nv IMG python train.py``, ``apptainer exec -B /data IMG torchrun ...``.

The runtime starts no training process of its own: it runs the command that follows inside the
image, once per task of the ``srun`` around it (NVlabs/FourCastNet ``interactive_train.sh:12`` @
93360c1: ``srun -n $ngpu --cpus-per-task=32 --gpus-per-node $ngpu shifter --image=${image} bash -c
"source export_DDP_vars.sh && $cmd"``). The command is read as if the runtime were not there; the
image is named in a note. Only ``exec`` of Singularity/Apptainer is followed (``run`` hands the
words to the image's own runscript, which is not read). Nothing is run.
"""

from __future__ import annotations

import os
from typing import Optional, Sequence

#: shifter's options that take a value (``--image=IMG`` or ``--image IMG``); the others are flags
_SHIFTER_VALUED = {"--image", "-i", "--volume", "-V", "--module", "-m", "--env", "-e", "--env-file",
                   "--workdir", "-w", "--user", "--group"}
#: ``singularity exec`` / ``apptainer exec`` options that take a value; the others are flags
#: (``--nv``, ``--cleanenv``, ``--containall``, ``--writable``, ...)
_SINGULARITY_VALUED = {"-B", "--bind", "--env", "--env-file", "-H", "--home", "--pwd", "-o", "--overlay",
                       "-S", "--scratch", "-W", "--workdir", "--network", "--network-args", "--security",
                       "--hostname", "--apply-cgroups", "--mount", "--app", "--dns", "--drop-caps",
                       "--add-caps", "--no-mount", "--cpus", "--memory", "--nvccli-opts"}
_SINGULARITY = ("singularity", "apptainer")


def _options(tokens: Sequence[str], i: int, valued: set[str]) -> int:
    while i < len(tokens) and tokens[i].startswith("-") and tokens[i] != "--":
        name = tokens[i].split("=", 1)[0]
        i += 2 if name in valued and "=" not in tokens[i] else 1
    if i < len(tokens) and tokens[i] == "--":
        i += 1
    return i


def container_end(tokens: Sequence[str], i: int) -> tuple[int, Optional[str]]:
    """``(index of the command the runtime runs, image)`` for a container runtime at ``tokens[i]``;
    ``(i, None)`` when there is none there, or nothing follows it."""
    if i >= len(tokens):
        return i, None
    head = os.path.basename(tokens[i])
    if head == "shifter":
        j = _options(tokens, i + 1, _SHIFTER_VALUED)
        image = next((t.split("=", 1)[1] for t in tokens[i + 1:j] if t.startswith("--image=")), None)
        if image is None:
            image = next((tokens[k + 1] for k in range(i + 1, j - 1) if tokens[k] in ("--image", "-i")), None)
        return (j, image or "the job's image") if j < len(tokens) else (i, None)
    if head in _SINGULARITY and i + 1 < len(tokens) and tokens[i + 1] == "exec":
        j = _options(tokens, i + 2, _SINGULARITY_VALUED)
        if j + 1 < len(tokens):  # the image, then the command
            return j + 1, tokens[j]
    return i, None
