"""The training group of a Ray driver in the OpenRLHF style (read by
:mod:`preflight.adapters.cliargs`): ``python -m openrlhf.cli.train_ppo_ray --actor_num_nodes N
--actor_num_gpus_per_node G`` places the actor model's DeepSpeed workers, one per GPU, on N
nodes of G GPUs (OpenRLHF ``openrlhf/cli/train_ppo_ray.py`` ``--actor_num_nodes`` "number of nodes
for actor", ``--actor_num_gpus_per_node``; ``openrlhf/trainer/ray/launcher.py`` builds
``num_nodes * num_gpus_per_node`` actor workers; the forks keep the flags: TideDra/lmm-r1 @
f917f18 ``examples/scripts/lmm_r1/train_direct_rl_geo.sh:71-72``). The trained model is the
actor's, so its group is the job's world. Both options must be declared by the script's parser
(their values from the launch line or the declared defaults); nothing is imported or run."""

from __future__ import annotations

from typing import Any, Callable

from preflight.adapters_api import Project
from preflight.plan import Source
from preflight.sources import ParsedPython


def ray_actor_group(project: Project, script: ParsedPython, line: str,
                    add: Callable[[str, Any, Source, str], None]) -> bool:
    """Add world size, nodes and devices per node of the actor group; True when added."""
    idx = project.index(script)
    if idx.options is None:
        return False
    nodes_got = idx.options("actor_num_nodes")
    gpus_got = idx.options("actor_num_gpus_per_node")
    if nodes_got is None or gpus_got is None:
        return False
    nodes, gpus = nodes_got.value, gpus_got.value
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in (nodes, gpus)):
        return False
    detail = (f"a Ray driver's actor group: --actor_num_nodes {nodes} x --actor_num_gpus_per_node {gpus} = "
              f"{nodes * gpus} training workers, one per GPU (launch line: {line})")
    add("dist.world_size", nodes * gpus, Source("derived", None, None, "actor_num_gpus_per_node", detail), "medium")
    add("dist.nodes", nodes, Source("derived", None, None, "actor_num_nodes", detail), "medium")
    add("dist.devices_per_node", gpus, Source("derived", None, None, "actor_num_gpus_per_node", detail), "medium")
    return True
