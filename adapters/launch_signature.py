"""A project's own copy of detectron2's ``launch`` (Pointcept ``pointcept/engines/launch.py`` @
d74c646:36-60 and YOLOX ``yolox/core/launch.py`` @ 6ddff48:39-80: ``def launch(main_func,
num_gpus_per_machine, num_machines=1, machine_rank=0, dist_url=None, ...)`` spawning
``num_gpus_per_machine`` workers on each machine; Pointcept ``tools/train.py:27-34`` calls
``launch(main_worker, num_gpus_per_machine=args.num_gpus, num_machines=args.num_machines, ...)``).
The module the call's name is imported from is read (never imported): a ``def launch`` whose
second parameter is ``num_gpus_per_machine`` and that calls a process spawner is that launcher."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from preflight.sources import read_text_limited

# the second parameter names the processes per machine, the third (if any) the machines: detectron2's
# ``num_gpus_per_machine, num_machines`` or rosinality's ``n_gpu_per_machine, n_machine``
_SIGNATURE = re.compile(r"^def\s+launch\s*\(\s*\w+\s*,\s*(num_gpus_per_machine|n_gpus?_per_machine)\b"
                        r"(?:\s*:\s*int)?(?:\s*=\s*\w+)?(?:\s*,\s*(num_machines|n_machines?)\b)?", re.M)
_SPAWNS = re.compile(r"\b(?:mp|multiprocessing)\.(?:spawn|start_processes)\(|\bspawn\(")
_MAX = 500_000


def project_launch(qualified: str, script_path: Optional[Path]) -> bool:
    """Whether ``qualified`` (``pointcept.engines.launch.launch``, ``yolox.core.launch``) is a
    ``launch`` of the project with detectron2's signature."""
    return launch_parameters(qualified, script_path) is not None


def launch_parameters(qualified: str, script_path: Optional[Path]) -> Optional[tuple[str, str]]:
    """The names of the per-machine count and machines parameters of the project's ``launch``
    ``qualified`` (detectron2's ``num_gpus_per_machine``/``num_machines``; rosinality/vq-vae-2-pytorch
    @ ef5f67c ``distributed/launch.py:22`` ``def launch(fn, n_gpu_per_machine, n_machine=1,
    machine_rank=0, dist_url=None, args=())`` spawning ``nprocs=n_gpu_per_machine`` at :41-46, called
    ``dist.launch(main, args.n_gpu, 1, 0, args.dist_url, args=(args,))`` at train_vqvae.py:152);
    None when it is not such a launcher."""
    if not qualified.endswith(".launch") or script_path is None:
        return None
    from preflight.script_parsers import _module_file

    module = qualified[: -len(".launch")]
    start = Path(script_path).parent
    seen: list[Path] = []
    for name in (module, qualified):  # the function's module, or a package re-exporting it
        found = _module_file(start, name)
        if found is not None and found not in seen:
            seen.append(found)
    for path in list(seen):
        if path.name == "__init__.py":
            sibling = path.parent / "launch.py"  # ``from .launch import launch``
            if sibling.is_file() and sibling not in seen:
                seen.append(sibling)
    for path in seen:
        try:
            text = read_text_limited(path, errors="replace")[:_MAX]
        except OSError:
            continue
        found_sig = _SIGNATURE.search(text)
        if found_sig is not None and _SPAWNS.search(text):
            per_machine = found_sig.group(1)
            machines = found_sig.group(2) or ("num_machines" if per_machine.startswith("num_") else "n_machine")
            return per_machine, machines
    return None

