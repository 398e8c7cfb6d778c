"""A DistributedDataParallel wrap that a plain ``python train.py`` never reaches.

``DistributedDataParallel(model)`` needs the default process group: torch raises "Default process group
has not been initialized" otherwise (``torch/nn/parallel/distributed.py`` ``_get_default_group()``). When the
job is one plain ``python`` process and every ``init_process_group`` of its code runs only when a launcher
has set ``RANK``/``WORLD_SIZE``/``LOCAL_RANK`` (the reading :mod:`preflight.adapters.cliargs` makes for
``dist.world_size`` 1), a DDP wrap found in the code is on a path the run does not take, or the run
fails there: the model is trained unwrapped. bytedance/SALMONN @ a58bba79 (salmonn branch) ``train.py``
launched as ``python3 train.py --cfg-path configs/config.yaml``: ``dist_utils.py:57-68``
``init_distributed_mode`` sets ``distributed = False`` when no ``RANK``/``SLURM_PROCID`` is in the
environment, and ``runner.py:59`` wraps in DDP only ``if self.use_distributed``.

The same when the DDP wrap sits in a local module the script imports and that module itself starts its
process group from those variables (and spawns nothing): epfml/llm-baselines ``src/distributed/ddp.py``.

``dist.sharding`` none (medium, above the code's ``ddp`` fact), said why. Not said when the process count
is anything else, or the DDP fact is not the plain reading of the code (a config's or a framework's).
"""

from __future__ import annotations

from typing import Any

from preflight.plan import Source, TrainingPlan

#: set by the cliargs adapter when one plain ``python`` process runs code whose ``init_process_group``
#: depends on a launcher's variables
NO_PROCESS_GROUP = "cliargs.no_process_group"


def _wrapping_module_needs_launcher(project: Any, path: Any) -> bool:
    """The local module holding the DDP wrap starts its process group from a launcher's variables
    (epfml/llm-baselines @ its pinned commit ``src/distributed/ddp.py:14-17``: ``self.rank =
    int(os.environ.get("RANK", -1))``, ``assert self.rank != -1`` then ``init_process_group(...)``; the class
    is picked only by ``--distributed_backend nccl``) and spawns no processes itself."""
    import os
    import re

    from preflight.adapters.cliargs_pass import _LAUNCHER_ENV

    from preflight.sources import read_text_limited

    if not path or getattr(project, "root", None) is None:
        return False
    full = os.path.join(str(project.root), str(path))
    try:
        text = read_text_limited(full, 500_000, errors="replace")
    except (OSError, ValueError):
        return False
    return ("init_process_group(" in text and _LAUNCHER_ENV.search(text) is not None
            and re.search(r"\bspawn\(|start_processes|Process\(", text) is None)


def ddp_unreached(plan: TrainingPlan, project: Any) -> None:
    world = plan.resolve("dist.world_size")
    sharding = plan.resolve("dist.sharding")
    if world is None or world.value != 1 or isinstance(world.value, bool) or world.source.key != "python":
        return
    if sharding is None or sharding.value != "ddp" or sharding.adapter != "pytorch" or sharding.source.kind != "code":
        return
    if not project.cache.get(NO_PROCESS_GROUP) and not (
            "a local module" in (sharding.source.detail or "")
            and _wrapping_module_needs_launcher(project, sharding.source.path)):
        return
    plan.add("dist.sharding", "none",
             Source("derived", sharding.source.path, sharding.source.line, None,
                    f"{sharding.source.detail or 'DistributedDataParallel(...)'} needs an initialized process group "
                    "(torch raises otherwise), and this job's init_process_group runs only when a launcher sets "
                    "RANK/WORLD_SIZE/LOCAL_RANK, which one plain python process does not: the wrap is not reached, "
                    "the model trains unwrapped"),
             "medium", adapter="derive", priority=1)
