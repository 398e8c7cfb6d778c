"""``srun`` starting one ``torchrun`` per node: how many nodes the job spans.

``srun torchrun --nproc_per_node 4 --rdzv_id $RANDOM --rdzv_backend c10d --rdzv_endpoint
$head_node_ip:29500 train.py`` in a batch script with ``#SBATCH --nodes=2 --ntasks=2``
(meta-llama/llama-recipes ``getting-started/finetuning/multi_node.slurm`` @ faae2fd:9-11,35)
starts one torchrun on each of the two nodes, and both join the rendezvous at the head node's
address: the job is meant to be 2 x 4 = 8 processes. torchrun's ``--nnodes`` is not given
(its default ``1:1``), so the count is read from srun's tasks at medium confidence, with a note
that ``--nnodes N`` is what makes the rendezvous wait for every node.

Without a rendezvous address shared by the nodes (no ``--rdzv_endpoint``/``--master_addr``,
or a loopback one) each torchrun runs its own single-node job: no multiplication.
More than one task per node starts several torchruns on a node: not read here.
"""

from __future__ import annotations

from typing import Any, Optional

_LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


def shared_endpoint(options: dict[str, str]) -> Optional[str]:
    """The rendezvous address every node's torchrun joins, or None (none given, or loopback)."""
    for key in ("__rdzv_endpoint", "__master_addr"):
        value = options.get(key, "").strip("'\"")
        if not value:
            continue
        host = value.rsplit(":", 1)[0] if value.count(":") == 1 else value
        if host in _LOOPBACK:
            return None
        return value
    return None


def srun_torchrun_nodes(info: Any, nodes: Optional[int], ntasks: Optional[int], per_node: Optional[int]) -> None:
    """Set ``info.nodes``/``info.total_procs`` of an ``srun ... torchrun`` line without
    ``--nnodes`` when srun starts one torchrun per node on several nodes that share a
    rendezvous; otherwise note what runs. ``nodes``/``ntasks``/``per_node`` are srun's."""
    if nodes is None and ntasks is not None and per_node == 1:
        nodes = ntasks
    if nodes is None or nodes <= 1:
        return
    one_per_node = per_node in (None, 1) and (ntasks is None or ntasks == nodes)
    endpoint = shared_endpoint(info.options)
    if endpoint is None:
        info.notes.append(f"srun runs torchrun on {nodes} nodes but torchrun's --nnodes is 1 (default): "
                          "each node would run a separate single-node job")
        return
    if not one_per_node or info.procs_per_node is None:
        return
    info.nodes = nodes
    info.total_procs = nodes * info.procs_per_node
    info.nodes_from_wrapper = True
    info.notes.append(f"srun starts one {info.launcher} on each of {nodes} nodes, all joining the rendezvous at "
                      f"{endpoint}: {nodes} x {info.procs_per_node} = {info.total_procs} processes (read at medium "
                      f"confidence: {info.launcher}'s --nnodes is not given and defaults to 1:1; pass --nnodes "
                      f"{nodes} so that the rendezvous waits for every node)")
